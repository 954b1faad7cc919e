// A liveness probe in a process of its own, so the load a test generates in
// its own process does not slow the probe's event loop: GETs `<url>/health`
// back to back from start until its stdin ends, then prints
// {"probes","slowestMs","p50Ms","p99Ms","maxMs","failures"} as one JSON line and exits. Given
// a project as second argument it also reads that project's newest calls
// (POST /v1/calls/query, limit 10) between probes, reported as "read" with
// the same fields.
const [base, project] = process.argv.slice(2);
let stopped = false;
process.stdin.on('data', () => {});
process.stdin.once('end', () => (stopped = true));

/** Times one request; a status other than 200 or a network error is a failure. */
async function timed(stats, request) {
  const started = performance.now();
  try {
    const answer = await request();
    await answer.arrayBuffer();
    if (answer.status !== 200) stats.failures++;
  } catch {
    stats.failures++;
  }
  stats.times.push(performance.now() - started);
}

function summary({ times, failures }) {
  const sorted = times.toSorted((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
  const slowestMs = sorted.at(-1) ?? 0;
  return { probes: sorted.length, slowestMs, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: slowestMs, failures };
}

const health = { times: [], failures: 0 };
const read = { times: [], failures: 0 };
const query = JSON.stringify({ project, limit: 10 });
process.stdout.write('probing\n');
while (!stopped) {
  await timed(health, () => fetch(`${base}/health`));
  if (project !== undefined)
    await timed(read, () =>
      fetch(`${base}/v1/calls/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: query,
      }),
    );
}
const result = summary(health);
if (project !== undefined) result.read = summary(read);
process.stdout.write(`${JSON.stringify(result)}\n`);
