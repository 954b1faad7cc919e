// Replay: a recorded 50-step agent (each step a model call through
// wrapOpenAI and a tool op, 4 KB of context added per step) replayed from the
// record and forked near its end.
//
//   node bench/replay.mjs
//
// The SDK, the server and the test fake provider are bundled from their
// TypeScript sources (no build step) and run in this process: a real server
// on 127.0.0.1 with a fresh SQLite file, the real `openai` package talking to
// the fake provider. Targets (issue 33): replaying up to step 40 takes < 1 s
// with 0 requests to the provider; a fork at step 40 makes exactly 10 live
// model calls.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import OpenAI from 'openai';
import { bundleSources, src } from './lib/bundle-sources.mjs';
import { writeResultsSection } from './lib/results-file.mjs';

const STEPS = 50;
const GROWTH = 4 * 1024;
const REPLAY_TO = 40;
const ROUNDS = 5;

const m = await bundleSources(
  'replay',
  `export { startServer } from ${src('packages/server/src/index.ts')};
   export { init, op } from ${src('packages/sdk/src/client/index.ts')};
   export { wrapOpenAI } from ${src('packages/sdk/src/integrations/openai/index.ts')};
   export { replay, fork } from ${src('packages/sdk/src/replay/index.ts')};
   export { startFakeProvider } from ${src('packages/sdk/test/fixtures/fake-provider/index.ts')};
   export { FaultProxy } from ${src('packages/sdk/test/support/fault-proxy.ts')};
   export { collectValueRefs } from ${src('packages/protocol/src/values/index.ts')};`,
);

const dir = await mkdtemp(join(os.tmpdir(), 'weft-bench-replay-'));
const server = await m.startServer({
  host: '127.0.0.1',
  port: 0,
  uiDir: false,
  dbPath: join(dir, 'weft.db'),
});
const provider = await m.startFakeProvider();
// A loopback proxy that keeps each request, to count the value reads (every request of the run goes through it).
const proxy = await m.FaultProxy.start({ upstream: server.url, record: true });
const load0 = os.loadavg()[0];
const client = m.init({ project: 'bench-replay', url: proxy.url, outbox: false, handleExit: false });
const openai = m.wrapOpenAI(new OpenAI({ apiKey: 'bench', baseURL: `${provider.url}/v1`, maxRetries: 0 }));

/** When each step started (by index), in the run being measured. */
let stepStarts = [];
const search = m.op(async function search(query) {
  return { hits: [`result for ${query}`], page: 'x'.repeat(GROWTH) };
});
const step = m.op(async function step(messages, index) {
  stepStarts[index] = performance.now();
  const reply = await openai.chat.completions.create({ model: 'gpt-4o', messages });
  const text = reply.choices[0]?.message.content ?? '';
  const found = await search(`${text} #${index}`);
  return { reply: text, found };
});
const agent = m.op(async function agent(task, steps) {
  const messages = [{ role: 'user', content: task }];
  for (let i = 0; i < steps; i++) {
    const { reply, found } = await step(messages, i);
    messages.push(
      { role: 'assistant', content: reply },
      { role: 'user', content: `${found.hits[0]}\n${found.page}` },
    );
  }
  return messages[messages.length - 2].content;
});

for (let i = 0; i < STEPS; i++) {
  provider.enqueue({
    kind: 'completion',
    completion: { text: `step ${i} reply`, usage: { inputTokens: 100, outputTokens: 10 } },
  });
}
const t0 = performance.now();
await agent('Research the question.', STEPS);
const recordMs = performance.now() - t0;
await client.flush();
const [root] = await client.getCalls({ parentId: null, limit: 1 }).toArray();
const traceId = root.id;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x) => Math.round(x * 10) / 10;
/** Value reads since request `from` of the proxy: "requests / digests asked". */
const valueReads = (from) => {
  const reads = proxy.received.slice(from).filter((r) => r.path === '/v1/values/read');
  const digests = reads.reduce((n, r) => n + JSON.parse(r.body.toString('utf8')).digests.length, 0);
  return `${reads.length} / ${digests}`;
};
/** CPU time of this process (SDK, server and fake provider all run in it) since `from`, in ms. */
const cpuMs = (from) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

// Replays: the first reads the trace from the server; later ones use the cached record.
const replays = [];
for (let r = 0; r < ROUNDS; r++) {
  const requests = provider.requests.length;
  stepStarts = [];
  const proxyFrom = proxy.received.length;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await m.replay(traceId, agent);
  const end = performance.now();
  const cpuUsed = cpuMs(cpu);
  if (result.failed) throw result.error;
  replays.push({
    cpu: cpuUsed,
    reads: valueReads(proxyFrom),
    toStep40: stepStarts[REPLAY_TO] - start,
    full: end - start,
    requests: provider.requests.length - requests,
    served: result.served,
    live: result.live,
  });
  await client.flush();
}

// Forks at the 40th step's tool output: steps 41–50 run live.
const forks = [];
for (let r = 0; r < ROUNDS; r++) {
  for (let i = 0; i < STEPS - REPLAY_TO; i++)
    provider.enqueue({ kind: 'completion', completion: { text: `fork reply ${i}` } });
  const requests = provider.requests.length;
  const proxyFrom = proxy.received.length;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await m.fork(traceId, agent, {
    at: `agent/step[${REPLAY_TO - 1}]/search`,
    output: { hits: ['an edited result'], page: '' },
  });
  const end = performance.now();
  const cpuUsed = cpuMs(cpu);
  if (result.failed) throw result.error;
  forks.push({
    cpu: cpuUsed,
    reads: valueReads(proxyFrom),
    ms: end - start,
    requests: provider.requests.length - requests,
    served: result.served,
    live: result.live,
  });
  await client.flush();
}

// Bytes a reader of the trace gets: all calls with values expanded (the read before values by digest), or
// with digests, plus each value once (the closure of the digests, read level by level as a replay does).
const post = async (path, body) => {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { bytes: Buffer.byteLength(text), json: JSON.parse(text) };
};
const traceQuery = {
  project: 'bench-replay',
  traceId,
  limit: 1000,
  sort: { field: 'startedAt', direction: 'asc' },
};
const resolvedRead = await post('/v1/calls/query', traceQuery);
const digestsRead = await post('/v1/calls/query', { ...traceQuery, values: 'digests' });
let frontier = new Set();
for (const call of digestsRead.json.calls) {
  m.collectValueRefs(call.inputs, frontier);
  m.collectValueRefs(call.output, frontier);
}
let valueBytes = 0;
const seen = new Set();
while (frontier.size > 0) {
  for (const digest of frontier) seen.add(digest);
  const { bytes, json } = await post('/v1/values/read', { project: 'bench-replay', digests: [...frontier] });
  valueBytes += bytes;
  const next = new Set();
  for (const value of json.values) {
    if (value.prev !== undefined) next.add(value.prev);
    m.collectValueRefs(value.kind === 'items' ? value.items : value.value, next);
  }
  frontier = new Set([...next].filter((digest) => !seen.has(digest)));
}
const kb = (bytes) => `${Math.round(bytes / 1024).toLocaleString('en-US')} KB`;

await client.shutdown();
await provider.close();
await proxy.close();
await server.close();
await rm(dir, { recursive: true, force: true });

const first = replays[0];
const cached = replays.slice(1);
const section = `## Replay

\`node bench/replay.mjs\` — ${new Date().toISOString()}, Node ${process.version}, ${os.cpus().length} CPUs, 1-minute load average ${load0.toFixed(1)} before / ${os.loadavg()[0].toFixed(1)} after (other work on the machine).
A ${STEPS}-step agent recorded through the real server (SQLite) and \`wrapOpenAI\` against the fake provider: each step is an op
that makes one model call and one tool op call, and the conversation grows by ${GROWTH / 1024} KB per step (recording took ${round(recordMs)} ms).
"To step 40" is from calling \`replay\` to the start of the 41st step (index ${REPLAY_TO}), so it includes reading the recorded trace
from the server on the first replay. The fork is \`fork(traceId, agent, { at: 'agent/step[${REPLAY_TO - 1}]/search', output })\`:
the 40th step's tool output edited, steps 41–${STEPS} live. "Live calls" counts calls whose function ran: the ${STEPS} step ops run
again in every replay (their model and tool calls are served), and after the fork point everything runs live. Target: to step 40 < 1 s with 0 provider requests; the fork makes exactly 10 model calls.
The trace's calls are read with their values as digests and each value once by digest (\`POST /v1/values/read\`, kept per client):
"Value reads" is requests / digests asked in the run (the first replay reads them all, later replays and forks none). Every request
goes through a loopback proxy that counts them. CPU is this process's user + system time (SDK, server and fake provider all run in it).
Bytes of JSON a reader of this trace gets: its ${digestsRead.json.calls.length} calls with values expanded (how a replay read the trace before) ${kb(resolvedRead.bytes)};
with values as digests ${kb(digestsRead.bytes)}, plus each of the ${seen.size} values once ${kb(valueBytes)}.

| Run                                      | Rounds | To step 40 (ms) | Whole replay (ms) | CPU (ms) | Value reads | Provider requests | Served calls | Live calls |
| ---------------------------------------- | -----: | --------------: | ----------------: | -------: | ----------: | ----------------: | -----------: | ---------: |
| Replay, first (reads the trace)          |      1 | ${round(first.toStep40)} | ${round(first.full)} | ${round(first.cpu)} | ${first.reads} | ${first.requests} | ${first.served} | ${first.live} |
| Replay, record cached (median)           | ${cached.length} | ${round(median(cached.map((x) => x.toStep40)))} | ${round(median(cached.map((x) => x.full)))} | ${round(median(cached.map((x) => x.cpu)))} | ${cached.map((x) => x.reads).join(', ')} | ${Math.max(...cached.map((x) => x.requests))} | ${cached[0].served} | ${cached[0].live} |
| Fork at step 40 (median)                 | ${forks.length} | — | ${round(median(forks.map((x) => x.ms)))} | ${round(median(forks.map((x) => x.cpu)))} | ${forks.map((x) => x.reads).join(', ')} | ${forks.map((x) => x.requests).join(', ')} | ${forks[0].served} | ${forks[0].live} |
`;
console.log(section);
await writeResultsSection('Replay', section);
