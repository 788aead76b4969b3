/**
 * The process's own metrics, beside the request metrics fastify-metrics keeps per app: the
 * capabilities (outbox, exports, imports) publish counters and gauges here, and /metrics serves
 * them with the rest. One registry a process: prom-client's default one, which the plugin's
 * endpoint always includes.
 */
import client from 'prom-client';

export type Labels = Record<string, string>;
/** A gauge's reading: one value, or one per label set. */
export type Reading = number | { labels: Labels; value: number }[];

export interface Counter {
  inc(labels?: Labels, by?: number): void;
}

/**
 * Label names that would carry who or which record: a label's values become series kept
 * forever and shown to whoever scrapes, so they stay to kinds and outcomes.
 */
const SENSITIVE_LABEL = /email|user|token|password|secret|session|(^|_)id$/i;

const PREFIX = 'tracemesh_';

function checked(name: string, labelNames: readonly string[]): string {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`metric name "${name}": lower case letters, digits and _ only`);
  const bad = labelNames.find((l) => SENSITIVE_LABEL.test(l));
  if (bad) throw new Error(`metric ${name}: the label "${bad}" would publish who or which record; use kinds and outcomes`);
  return PREFIX + name;
}

/** Several app instances in one process (tests) each bring their reading; the gauge shows their sum. */
const readers = new Map<string, Set<() => Reading | Promise<Reading>>>();
let defaults = false;

export const metrics = {
  register: client.register,

  /** A counter, made once a process; the same name gives the same counter. */
  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    const full = checked(name, labelNames);
    const made = (client.register.getSingleMetric(full) as client.Counter | undefined)
      ?? new client.Counter({ name: full, help, labelNames: [...labelNames] });
    return { inc: (labels = {}, by = 1) => made.inc(labels, by) };
  },

  /**
   * A gauge read when scraped. Returns what removes this reading (a closing app's jobs must not
   * be read after it stopped).
   */
  gauge(name: string, help: string, collect: () => Reading | Promise<Reading>, labelNames: readonly string[] = []): () => void {
    const full = checked(name, labelNames);
    let set = readers.get(full);
    if (!set) {
      const mine = new Set<() => Reading | Promise<Reading>>();
      readers.set(full, mine);
      set = mine;
      new client.Gauge({
        name: full, help, labelNames: [...labelNames],
        async collect() {
          this.reset();
          const sums = new Map<string, { labels: Labels; value: number }>();
          for (const read of mine) {
            const r = await read();
            for (const s of typeof r === 'number' ? [{ labels: {}, value: r }] : r) {
              const key = JSON.stringify(Object.entries(s.labels).sort());
              const cur = sums.get(key);
              if (cur) cur.value += s.value;
              else sums.set(key, { labels: s.labels, value: s.value });
            }
          }
          for (const s of sums.values()) this.set(s.labels, s.value);
        },
      });
    }
    set.add(collect);
    return () => { set.delete(collect); };
  },

  /** Node's process metrics (memory, CPU, event-loop lag), started once a process. */
  processMetrics(): void {
    if (defaults) return;
    defaults = true;
    client.collectDefaultMetrics({ register: client.register, prefix: PREFIX });
  },
};
