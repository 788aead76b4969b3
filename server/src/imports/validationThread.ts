/**
 * validateFile on a worker thread, for the embedded store: the main thread stays free to serve
 * requests and to write the rows already validated while the rest of the file is checked.
 * The outcomes come back in order, as from validateFile itself; errors keep their class.
 */
import type { Registry } from '../../../engine/src/index';
import { startThread, threadModule } from '../threads';
import { EncodingError, TooLargeError, TooManyRowsError } from './source';
import type { BatchOutcome, ValidationInput } from './validation';
import type { ValidationJob, ValidationMessage } from './validationWorker';

const WORKER = threadModule(new URL('./validationWorker.ts', import.meta.url));

/**
 * What the thread keeps alive is its batch and the import keys seen (about 60 MB for a million);
 * a cap of its own makes it collect early (it would otherwise take the server's cap too, and the
 * two heaps together pass the 500 MB an import of a million rows may use).
 */
const THREAD_HEAP = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 8 };

function thrown(error: Extract<ValidationMessage, { kind: 'error' }>['error']): Error {
  if (error.type === 'encoding') return new EncodingError();
  if (error.type === 'too-large') return new TooLargeError(error.limit ?? 0);
  if (error.type === 'too-many-rows') return new TooManyRowsError(error.limit ?? 0);
  return new Error(error.message);
}

export async function* validateInThread(registry: Registry, entity: string, header: string[], storeFile: string, input: ValidationInput): AsyncGenerator<BatchOutcome> {
  const job: ValidationJob = { registry, entity, header, storeFile, input };
  const worker = startThread(WORKER, { workerData: job, resourceLimits: THREAD_HEAP });
  const queue: ValidationMessage[] = [];
  let wake: (() => void) | null = null;
  const push = (m: ValidationMessage) => {
    queue.push(m);
    wake?.();
  };
  worker.on('message', push);
  worker.on('error', (e: Error & { code?: string }) => {
    const message = e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `checking the file took more than the ${THREAD_HEAP.maxOldGenerationSizeMb} MB it may use: split it into smaller files` : e.message;
    push({ kind: 'error', error: { type: 'other', message } });
  });
  worker.on('exit', (code) => push({ kind: 'error', error: { type: 'other', message: `the validation thread stopped (exit code ${code})` } }));
  try {
    for (;;) {
      if (queue.length === 0) await new Promise<void>((r) => { wake = r; });
      wake = null;
      const m = queue.shift()!;
      if (m.kind === 'done') return;
      if (m.kind === 'error') throw thrown(m.error);
      yield m.outcome;
      worker.postMessage('recorded'); // the thread may check another batch (validationWorker.ts)
    }
  } finally {
    worker.removeAllListeners();
    await worker.terminate();
  }
}
