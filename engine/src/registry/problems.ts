/** A definition problem: the file, the JSON pointer inside it, and what is wrong. */
export interface Problem {
  file: string;
  pointer: string;
  message: string;
}

/** A name as one JSON pointer segment (RFC 6901). */
export function escapePointer(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function formatProblem(p: Problem): string {
  return `${p.file}:${p.pointer || '/'}: ${p.message}`;
}

export class DefinitionError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[]) {
    super(`${problems.length} problem(s) in definitions:\n${problems.map(formatProblem).join('\n')}`);
    this.problems = problems;
    this.name = 'DefinitionError';
  }
}
