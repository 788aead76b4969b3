export type Strength = 'weak' | 'medium' | 'strong';

export interface StrengthThresholds {
  mediumMinLength: number;
  strongMinLength: number;
}

const DEFAULTS: StrengthThresholds = { mediumMinLength: 6, strongMinLength: 8 };

/** SPEC 5: weak for any text; medium from 6 characters with two of lower, upper, digit; strong from 8 with all three. */
export function passwordStrength(password: string, t: StrengthThresholds = DEFAULTS): Strength | null {
  if (!password) return null;
  const kinds = Number(/[a-z]/.test(password)) + Number(/[A-Z]/.test(password)) + Number(/\d/.test(password));
  if (password.length >= t.strongMinLength && kinds === 3) return 'strong';
  if (password.length >= t.mediumMinLength && kinds >= 2) return 'medium';
  return 'weak';
}
