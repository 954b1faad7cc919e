#!/usr/bin/env node
// A chat loop through the real SDK against a real server (a child process
// with its own SQLite file), the shape agents trace: every model call's input
// is the whole conversation so far (system prompt, tool definitions, every
// message), so without dedup the bytes sent grow with the square of the turns.
// A counting proxy sums the request bodies over ALL routes. Reports, with
// values sent once (the default) and with `dedupThresholdBytes: 0` (every
// record whole):
//   - bytes sent / unique bytes (the conversation, the tools and the system
//     prompt once, as JSON; target ≤ 1.5×)
//   - server storage (the SQLite file after the server closed)
//   - SDK process CPU per traced call (loop + flush)
// and checks that every call reads back with its whole history.
//
//   node bench/chat-loop.mjs [--turns 50] [--reply-bytes 1200] [--user-bytes 300]
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { benchText as text, startBenchServer } from './lib/bench-server.mjs';
import { bundleSources, src } from './lib/bundle-sources.mjs';
import { countingProxy } from './lib/counting-proxy.mjs';

const { values: args } = parseArgs({
  options: {
    turns: { type: 'string', default: '50' },
    'reply-bytes': { type: 'string', default: '1200' },
    'user-bytes': { type: 'string', default: '300' },
  },
});

await main();

async function run(sdk, { turns, replyBytes, userBytes, dedup }) {
  const server = await startBenchServer('weft-bench-chat');
  const proxy = await countingProxy(server.url);
  const project = `chat-${dedup ? 'dedup' : 'whole'}`;
  const client = sdk.init({
    project,
    url: proxy.url,
    outbox: false,
    setDefault: false,
    handleExit: false,
    ...(dedup ? {} : { dedupThresholdBytes: 0 }),
  });
  const tools = Array.from({ length: 4 }, (_, i) => ({
    type: 'function',
    function: {
      name: `tool_${i}`,
      description: text(100 + i, 300),
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', description: text(200 + i, 80) } },
      },
    },
  }));
  const chat = client.op(
    function chatCompletion(request) {
      return { role: 'assistant', content: text(10_000 + request.messages.length, replyBytes) };
    },
    { name: 'chat' },
  );
  const messages = [{ role: 'system', content: text(1, 2_000) }];
  const expected = [];
  const cpu = process.cpuUsage();
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ role: 'user', content: text(20_000 + turn, userBytes) });
    expected.push(JSON.stringify(messages));
    messages.push(chat({ model: 'gpt-4o-mini', messages, tools, temperature: 0 }));
    await new Promise((resolve) => setImmediate(resolve)); // one turn per model call, as a real loop awaits its model
  }
  const flushed = await client.flush();
  const used = process.cpuUsage(cpu);
  const sent = proxy.log.filter((r) => r.method === 'POST').reduce((n, r) => n + r.bytes, 0);
  const unique = JSON.stringify({ model: 'gpt-4o-mini', tools, messages, temperature: 0 }).length;
  // Every call reads back with its whole history (the read API expands the values).
  const calls = await client.getCalls({ opName: 'chat' }).toArray();
  calls.sort((a, b) => a.inputs.request.messages.length - b.inputs.request.messages.length);
  const intact =
    calls.length === turns &&
    calls.every((call, turn) => JSON.stringify(call.inputs.request.messages) === expected[turn]);
  const dedupStats = client.diagnostics().dedup;
  await client.shutdown();
  proxy.close();
  const dbBytes = await server.stop();
  return {
    mode: dedup ? 'values sent once (default)' : 'every record whole (dedupThresholdBytes: 0)',
    turns,
    sentKB: sent / 1e3,
    uniqueKB: unique / 1e3,
    ratio: sent / unique,
    requests: proxy.log.length,
    dbKB: dbBytes / 1e3,
    cpuUsPerCall: (used.user + used.system) / turns,
    intact,
    failed: flushed.failed,
    valuesSent: dedupStats?.valuesSent ?? 0,
  };
}

async function main() {
  const turns = Number(args.turns);
  const replyBytes = Number(args['reply-bytes']);
  const userBytes = Number(args['user-bytes']);
  const loadBefore = loadavg()[0];
  const sdk = await bundleSources(
    'chat-loop-sdk',
    `export { init } from ${src('packages/sdk/src/client/init.ts')};`,
  );
  const results = [];
  // Alternate, so both modes see the same machine conditions.
  for (const dedup of [false, true, false, true]) {
    const result = await run(sdk, { turns, replyBytes, userBytes, dedup });
    console.log(JSON.stringify(result));
    results.push(result);
  }
  console.log(
    `\n\`node bench/chat-loop.mjs --turns ${turns}\` — ${new Date().toISOString()}, Node ${process.version}, ${cpus().length} CPUs, load average ${loadBefore.toFixed(2)} → ${loadavg()[0].toFixed(2)}.`,
  );
  console.log(
    `${turns} turns; user messages ${userBytes} B, replies ${replyBytes} B, a 2,000 B system prompt and 4 tool definitions (~1.9 KB) in every call's input.\n`,
  );
  console.log(
    '| Mode | Sent KB (all routes) | Unique KB | Sent / unique | Requests | SQLite file KB | SDK CPU µs per call | Read back intact |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const r of results) {
    console.log(
      `| ${r.mode} | ${r.sentKB.toFixed(1)} | ${r.uniqueKB.toFixed(1)} | ${r.ratio.toFixed(2)}× | ${r.requests} | ${r.dbKB.toFixed(0)} | ${r.cpuUsPerCall.toFixed(0)} | ${r.intact && r.failed === 0 ? 'yes' : 'NO'} |`,
    );
  }
}
