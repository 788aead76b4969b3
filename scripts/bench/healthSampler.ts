/**
 * /api/health latencies from a process of its own (reports.ts forks it): one request at a time,
 * 10 ms apart, until the parent sends "stop"; then it sends back every latency (ms). In the
 * bench's own process the samples waited behind the bench's work on its event loop (reading and
 * counting a 108 MB download), which is the client's time, not the server's.
 */
export {};

const url = process.argv[2];
let stop = false;
const times: number[] = [];
process.on('message', () => { stop = true; });
process.send?.('ready');
while (!stop) {
  const s = performance.now();
  await (await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(60_000) })).arrayBuffer();
  times.push(performance.now() - s);
  await new Promise((ok) => setTimeout(ok, 10));
}
process.send?.(times, () => process.exit(0));
