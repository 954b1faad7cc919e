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
   export { startFakeProvider } from ${src('packages/sdk/test/fixtures/fake-provider/index.ts')};`,
);

const dir = await mkdtemp(join(os.tmpdir(), 'weft-bench-replay-'));
const server = await m.startServer({
  host: '127.0.0.1',
  port: 0,
  uiDir: false,
  dbPath: join(dir, 'weft.db'),
});
const provider = await m.startFakeProvider();
const load0 = os.loadavg()[0];
const client = m.init({ project: 'bench-replay', url: server.url, outbox: false, handleExit: false });
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

// Replays: the first reads the trace from the server; later ones use the cached record.
const replays = [];
for (let r = 0; r < ROUNDS; r++) {
  const requests = provider.requests.length;
  stepStarts = [];
  const start = performance.now();
  const result = await m.replay(traceId, agent);
  const end = performance.now();
  if (result.failed) throw result.error;
  replays.push({
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
  const start = performance.now();
  const result = await m.fork(traceId, agent, {
    at: `agent/step[${REPLAY_TO - 1}]/search`,
    output: { hits: ['an edited result'], page: '' },
  });
  const end = performance.now();
  if (result.failed) throw result.error;
  forks.push({
    ms: end - start,
    requests: provider.requests.length - requests,
    served: result.served,
    live: result.live,
  });
  await client.flush();
}

await client.shutdown();
await provider.close();
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

| Run                                      | Rounds | To step 40 (ms) | Whole replay (ms) | Provider requests | Served calls | Live calls |
| ---------------------------------------- | -----: | --------------: | ----------------: | ----------------: | -----------: | ---------: |
| Replay, first (reads the trace)          |      1 | ${round(first.toStep40)} | ${round(first.full)} | ${first.requests} | ${first.served} | ${first.live} |
| Replay, record cached (median)           | ${cached.length} | ${round(median(cached.map((x) => x.toStep40)))} | ${round(median(cached.map((x) => x.full)))} | ${Math.max(...cached.map((x) => x.requests))} | ${cached[0].served} | ${cached[0].live} |
| Fork at step 40 (median)                 | ${forks.length} | — | ${round(median(forks.map((x) => x.ms)))} | ${forks.map((x) => x.requests).join(', ')} | ${forks[0].served} | ${forks[0].live} |
`;
console.log(section);
await writeResultsSection('Replay', section);
