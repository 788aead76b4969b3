import { useTranslation } from 'react-i18next';
import { passwordStrength, type StrengthThresholds } from '../../../engine/src/index';

const LEVEL = { weak: 1, medium: 2, strong: 3 } as const;

/** SPEC 5: weak, medium or strong, from the engine's rule and the deployment's thresholds. */
export function PasswordStrength({ password, thresholds }: { password: string; thresholds: StrengthThresholds }) {
  const { t } = useTranslation();
  const strength = passwordStrength(password, thresholds);
  return (
    <div className="tm-strength" aria-live="polite" data-strength={strength ?? 'none'}>
      <div className="tm-strength__bars" aria-hidden="true">
        {[1, 2, 3].map((n) => (
          <span key={n} className={`tm-strength__bar${strength && LEVEL[strength] >= n ? ` is-${strength}` : ''}`} />
        ))}
      </div>
      <span className="tm-strength__text">
        {t('password.strength.label')}: {strength ? <strong>{t(`password.strength.${strength}`)}</strong> : '—'}
      </span>
    </div>
  );
}
