#!/usr/bin/env node
// Dataset publishing at scale: 100,000 rows of ≈ 2 KB (≈ 200 MB) published to
// a real server (in a child process, so it does not share this loop), through
// a counting pass-through proxy. Reports time per phase, requests, rows sent,
// and the largest request body (the server's limit is 64 MiB):
//   1. first publish (every row travels, in byte-bounded chunks)
//   2. re-publish unchanged (one GET, nothing sent)
//   3. one row changed (one row sent, the table made from digests)
//   4. lazy read-back of every row, page by page
//
// SDK and server are bundled from their TypeScript sources with esbuild.
//
//   node bench/dataset.mjs [--rows 100000] [--row-bytes 2000]
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleSources, src } from './lib/bundle-sources.mjs';
import { countingProxy } from './lib/counting-proxy.mjs';

const { values: args } = parseArgs({
  options: {
    serve: { type: 'string' },
    rows: { type: 'string', default: '100000' },
    'row-bytes': { type: 'string', default: '2000' },
  },
});

if (args.serve) {
  const { startServer } = await bundleSources(
    'dataset-server',
    `export { startServer } from ${src('packages/server/src/index.ts')};`,
  );
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    uiDir: false,
    dbPath: join(args.serve, 'weft.db'),
  });
  process.send?.({ url: server.url });
  process.on('message', async () => {
    await server.close();
    process.exit(0);
  });
} else {
  await main();
}

async function main() {
  const rowCount = Number(args.rows);
  const rowBytes = Number(args['row-bytes']);
  const loadBefore = loadavg()[0];
  const sdk = await bundleSources(
    'dataset-sdk',
    `export { init } from ${src('packages/sdk/src/client/init.ts')};
     export { Dataset, openDataset } from ${src('packages/sdk/src/datasets/index.ts')};`,
  );
  const dir = await mkdtemp(join(tmpdir(), 'weft-bench-dataset-'));
  const child = fork(fileURLToPath(import.meta.url), ['--serve', dir], { stdio: 'inherit' });
  const { url } = await new Promise((resolve) => child.once('message', resolve));
  const proxy = await countingProxy(url);
  const client = sdk.init({ project: 'bench-dataset', url: proxy.url, outbox: false, setDefault: false });

  const filler = 'abcdefghij'.repeat(Math.ceil(rowBytes / 10)).slice(0, rowBytes);
  const rows = Array.from({ length: rowCount }, (_, i) => ({ i, text: `${i}:${filler}` }));
  const results = [];
  const phase = async (name, fn) => {
    const from = proxy.log.length;
    const started = performance.now();
    const out = await fn();
    const ms = performance.now() - started;
    const reqs = proxy.log.slice(from);
    const result = {
      phase: name,
      seconds: (ms / 1000).toFixed(1),
      requests: reqs.length,
      rowsSent: out?.uploadedRows ?? '',
      sentMB: (reqs.reduce((n, r) => n + r.bytes, 0) / 1e6).toFixed(1),
      largestBodyMB: (Math.max(0, ...reqs.map((r) => r.bytes)) / 1e6).toFixed(2),
    };
    results.push(result);
    console.log(JSON.stringify(result));
    return out;
  };

  const dataset = new sdk.Dataset({ name: 'bench', rows });
  await phase('hash rows (off the caller’s turn)', () => dataset.rowDigests());
  const first = await phase('first publish', () => dataset.publish({ client }));
  await phase('re-publish unchanged', () => new sdk.Dataset({ name: 'bench', rows }).publish({ client }));
  const edited = [...rows];
  edited[Math.floor(rowCount / 2)] = { i: -1, text: 'changed' };
  await phase('one row changed', () => new sdk.Dataset({ name: 'bench', rows: edited }).publish({ client }));
  await phase('lazy read-back, pages of 5,000', async () => {
    const view = await sdk.openDataset(first.ref.uri, { client, pageRows: 5_000 });
    let n = 0;
    for await (const _ of view) n++;
    await view.close();
    if (n !== rowCount) throw new Error(`read back ${n} rows, expected ${rowCount}`);
  });

  await client.shutdown();
  proxy.close();
  child.send('stop');
  await once(child, 'exit');
  await rm(dir, { recursive: true, force: true });
  console.log(
    `\n${rowCount.toLocaleString('en-US')} rows × ≈ ${rowBytes} B, load average ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}`,
  );
  console.log('| phase | s | requests | rows sent | MB sent | largest body MB |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results) {
    console.log(
      `| ${r.phase} | ${r.seconds} | ${r.requests} | ${r.rowsSent} | ${r.sentMB} | ${r.largestBodyMB} |`,
    );
  }
}
