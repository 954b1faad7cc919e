#!/usr/bin/env node
// A RAG-style agent through the real SDK against a real server (a child
// process with its own SQLite file): 40 turns, each a traced `retrieve` that
// draws 5 documents from a 40-document corpus and a traced async `chat`
// whose input is a fixed system prompt, a fixed tool list, the growing
// history and the 5 documents. A counting proxy sums the request bodies over
// ALL routes; values sent once should send about the unique bytes (the
// corpus documents used, the tools, the system prompt and the history, once).
//
// Run twice per mode, alternating: "quiet" forwards every request at once;
// "slow acks" holds each batch request 0–`--ack-delay-ms` ms at the proxy
// (seeded), so the two batches the SDK has in flight cross at the server
// (a loaded machine does the same by chance). The figure must not depend on it.
//
//   node bench/rag-loop.mjs [--turns 40] [--ack-delay-ms 150] [--write-results]
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { benchText as text, startBenchServer } from './lib/bench-server.mjs';
import { bundleSources, src } from './lib/bundle-sources.mjs';
import { countingProxy } from './lib/counting-proxy.mjs';
import { writeResultsSection } from './lib/results-file.mjs';

const { values: args } = parseArgs({
  options: {
    turns: { type: 'string', default: '40' },
    'ack-delay-ms': { type: 'string', default: '150' },
    'write-results': { type: 'boolean', default: false },
  },
});

const CORPUS = 40;
const DRAWN = 5;
/** A retrieved chunk: about 500 tokens. */
const DOCUMENT_CHARS = 2_000;

/** A seeded generator of integers in [0, n). */
function seeded(seed) {
  let x = seed;
  return (n) => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return (x >>> 16) % n; // the high bits: the low ones of this generator repeat quickly
  };
}

async function run(sdk, { turns, ackDelayMs }) {
  const server = await startBenchServer('weft-bench-rag');
  const delay = seeded(7);
  const proxy = await countingProxy(server.url, {
    delayMs: (method, path) =>
      ackDelayMs > 0 && method === 'POST' && path.includes('batch') ? delay(ackDelayMs) : 0,
  });
  const client = sdk.init({
    project: 'rag',
    url: proxy.url,
    outbox: false,
    setDefault: false,
    handleExit: false,
  });
  const corpus = Array.from({ length: CORPUS }, (_, i) => ({
    id: `doc-${i}`,
    text: text(500 + i, DOCUMENT_CHARS),
  }));
  const tools = Array.from({ length: 4 }, (_, i) => ({
    type: 'function',
    function: { name: `tool_${i}`, description: text(100 + i, 300), parameters: { type: 'object' } },
  }));
  const draw = seeded(11);
  const retrieve = client.op(
    async function retrieve(query) {
      void query; // traced as the call's input; the draw does not depend on it
      await sleep(5); // the vector store
      const picked = new Set();
      while (picked.size < DRAWN) picked.add(draw(CORPUS));
      return [...picked].map((i) => corpus[i]);
    },
    { name: 'retrieve' },
  );
  const chat = client.op(
    async function chatCompletion(request) {
      await sleep(20); // the model's latency
      return { role: 'assistant', content: text(10_000 + request.messages.length, 1_200) };
    },
    { name: 'chat' },
  );
  const agentTurn = client.op(
    async function agentTurn(messages) {
      const documents = await retrieve(messages.at(-1).content);
      used.push(...documents);
      return chat({ model: 'gpt-4o-mini', messages, tools, documents, temperature: 0 });
    },
    { name: 'turn' },
  );
  const used = [];
  const messages = [{ role: 'system', content: text(1, 2_000) }];
  const cpu = process.cpuUsage();
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ role: 'user', content: text(20_000 + turn, 300) });
    messages.push(await agentTurn(messages));
  }
  const flushed = await client.flush();
  const used_ = process.cpuUsage(cpu);
  const sent = proxy.log.filter((r) => r.method === 'POST').reduce((n, r) => n + r.bytes, 0);
  const unique = JSON.stringify({ tools, messages, documents: [...new Set(used)] }).length;
  const calls = await client.getCalls({ opName: 'chat' }).toArray();
  const intact =
    calls.length === turns && calls.every((call) => call.inputs.request.documents.length === DRAWN);
  await client.shutdown();
  proxy.close();
  await server.stop();
  return {
    mode: ackDelayMs > 0 ? `slow acks (0–${ackDelayMs} ms)` : 'quiet',
    sentKB: sent / 1e3,
    uniqueKB: unique / 1e3,
    ratio: sent / unique,
    requests: proxy.log.length,
    cpuUsPerTurn: (used_.user + used_.system) / turns,
    intact: intact && flushed.failed === 0,
  };
}

const turns = Number(args.turns);
const ackDelayMs = Number(args['ack-delay-ms']);
const loadBefore = loadavg()[0];
const sdk = await bundleSources(
  'rag-loop-sdk',
  `export { init } from ${src('packages/sdk/src/client/init.ts')};`,
);
const results = [];
for (const delayMs of [0, ackDelayMs, 0, ackDelayMs]) {
  const result = await run(sdk, { turns, ackDelayMs: delayMs });
  console.log(JSON.stringify(result));
  results.push(result);
}
const lines = [
  '## RAG loop: values sent once, whatever the timing',
  '',
  `\`node bench/rag-loop.mjs --turns ${turns} --ack-delay-ms ${ackDelayMs}\` — ${new Date().toISOString()}, Node ${process.version}, ${cpus().length} CPUs, load average ${loadBefore.toFixed(2)} → ${loadavg()[0].toFixed(2)}.`,
  `${turns} turns; each a \`retrieve\` (${DRAWN} of ${CORPUS} documents of ${DOCUMENT_CHARS / 1000} KB, 5 ms) and an async \`chat\` (20 ms) whose input is a 2,000 B system prompt, 4 tools (~1.9 KB), the history (user 300 B, replies 1,200 B) and the documents.`,
  '',
  '| Mode | Sent KB (all routes) | Unique KB | Sent / unique | Requests | SDK CPU µs per turn | Read back intact |',
  '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ...results.map(
    (r) =>
      `| ${r.mode} | ${r.sentKB.toFixed(1)} | ${r.uniqueKB.toFixed(1)} | ${r.ratio.toFixed(2)}× | ${r.requests} | ${r.cpuUsPerTurn.toFixed(0)} | ${r.intact ? 'yes' : 'NO'} |`,
  ),
];
console.log(`\n${lines.join('\n')}`);
if (args['write-results'])
  await writeResultsSection('RAG loop: values sent once, whatever the timing', `${lines.join('\n')}\n`);
