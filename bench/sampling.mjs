// Cost of a sampled-out call: `weft.init({ sampleRate: 0 })` against the same
// function untraced, per call, on the caller's turn.
//
// Build first (npx turbo run build), then run:
//   node bench/sampling.mjs
//
// Three cases, rounds interleaved in one process, median ns/call over rounds:
// - untraced: the plain function;
// - sampled-out root: an op called outside any trace (draws the trace id,
//   decides, runs the function in a "not sampled" context frame);
// - sampled-out child: an op called inside a sampled-out trace (sees the
//   frame and calls straight through).
// The function takes an object argument so a snapshot, if one were taken,
// would show (none is: the decision comes before it).
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createClient } from '@weft/sdk/testing';
import { writeResultsSection } from './lib/results-file.mjs';

const CALLS = 200_000;
const ROUNDS = 15;

const nullSink = () => ({ add: (record) => record.done({ status: 'sent' }), flush: async () => {} });
const client = createClient(
  { project: 'bench-sampling', outbox: false, handleExit: false, sampleRate: 0 },
  nullSink,
);

let sink = 0;
function work(request) {
  return request.messages.length + request.temperature;
}
const request = { model: 'gpt-4o', temperature: 0, messages: [{ role: 'user', content: 'hello' }] };

const tracedRoot = client.op(work, { name: 'llmCall' });
const tracedChild = client.op(work, { name: 'llmCall' });
// Runs CALLS child calls inside one sampled-out trace.
const parentOfChildren = client.op(function agentStep(n) {
  for (let i = 0; i < n; i++) sink += tracedChild(request);
});

function time(fn) {
  const t0 = performance.now();
  fn();
  return ((performance.now() - t0) * 1e6) / CALLS;
}
const cases = {
  untraced: () =>
    time(() => {
      for (let i = 0; i < CALLS; i++) sink += work(request);
    }),
  'sampled-out root': () =>
    time(() => {
      for (let i = 0; i < CALLS; i++) sink += tracedRoot(request);
    }),
  'sampled-out child': () => time(() => parentOfChildren(CALLS)),
};

const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let r = 0; r < ROUNDS + 2; r++) {
  for (const [name, run] of Object.entries(cases)) {
    const ns = run();
    if (r >= 2) samples[name].push(ns); // two warm-up rounds
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const m = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, median(xs)]));
const stats = client.diagnostics().sampling;
await client.shutdown();
if (stats.sampledOutCalls !== (ROUNDS + 2) * CALLS * 2 + (ROUNDS + 2))
  throw new Error(`unexpected sampled-out count ${stats.sampledOutCalls}`);

const fmt = (x) => x.toFixed(1);
const load = os.loadavg()[0].toFixed(2);
const section = `## Sampling

\`node bench/sampling.mjs\` — ${new Date().toISOString()}, Node ${process.version}, ${os.availableParallelism()} CPUs, 1-minute load average ${load} (other work on the machine).
\`weft.init({ sampleRate: 0 })\`, a synchronous function of one object argument, ${CALLS.toLocaleString('en-US')} calls per round, median of ${ROUNDS} interleaved rounds.
Target: a sampled-out call costs < 1 µs (1,000 ns) beyond the untraced call, and takes no snapshot.

| Case | ns/call | Beyond untraced, ns |
| --- | ---: | ---: |
| untraced | ${fmt(m.untraced)} | – |
| sampled-out root (draws the 32 bits that would end its trace id, decides, enters the "not sampled" frame; no id string) | ${fmt(m['sampled-out root'])} | ${fmt(m['sampled-out root'] - m.untraced)} |
| sampled-out child (inside a sampled-out trace: one context read, a counter) | ${fmt(m['sampled-out child'])} | ${fmt(m['sampled-out child'] - m.untraced)} |

\`diagnostics().sampling.sampledOutCalls\` counted every call (${stats.sampledOutCalls.toLocaleString('en-US')}). At the default
(\`sampleRate: 1\`) the client has no sampler and the traced path is unchanged (see "SDK").
`;
await writeResultsSection('Sampling', section);
console.log(section);
if (sink === -1) console.log(sink);
