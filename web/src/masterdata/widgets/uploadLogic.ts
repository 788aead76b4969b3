export interface FileProblem { code: 'type' | 'size'; params: Record<string, string | number> }

/** The browser's first check of a chosen file (the server sniffs the content again). */
export function checkFile(file: { name: string; type: string; size: number }, accept?: readonly string[], maxSizeBytes?: number): FileProblem | null {
  if (accept?.length) {
    const ext = file.name.includes('.') ? `.${file.name.split('.').pop()!.toLowerCase()}` : '';
    const ok = accept.some((a) => a === file.type || (a.endsWith('/*') && file.type.startsWith(a.slice(0, -1))) || a.toLowerCase() === ext);
    if (!ok) return { code: 'type', params: { accept: accept.join(', ') } };
  }
  if (maxSizeBytes && file.size > maxSizeBytes) return { code: 'size', params: { max: Math.round(maxSizeBytes / 1024 / 1024 * 10) / 10 } };
  return null;
}
