// A liveness probe in a process of its own, so the load a test generates in
// its own process does not slow the probe's event loop: GETs `<url>/health`
// back to back from start until its stdin ends, then prints
// {"probes","slowestMs","failures"} as one JSON line and exits.
const url = `${process.argv[2]}/health`;
let stopped = false;
process.stdin.on('data', () => {});
process.stdin.once('end', () => (stopped = true));
let probes = 0;
let failures = 0;
let slowestMs = 0;
process.stdout.write('probing\n');
while (!stopped) {
  const started = performance.now();
  try {
    const answer = await fetch(url);
    await answer.arrayBuffer();
    if (answer.status !== 200) failures++;
  } catch {
    failures++;
  }
  slowestMs = Math.max(slowestMs, performance.now() - started);
  probes++;
}
process.stdout.write(`${JSON.stringify({ probes, slowestMs, failures })}\n`);
