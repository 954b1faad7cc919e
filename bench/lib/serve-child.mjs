// The child process of `startBenchServer`: a real Weft server (from the
// sources) on 127.0.0.1 with its SQLite file in the folder given as argv[2].
import { join } from 'node:path';
import { bundleSources, src } from './bundle-sources.mjs';

const { startServer } = await bundleSources(
  'bench-server',
  `export { startServer } from ${src('packages/server/src/index.ts')};`,
);
const server = await startServer({
  host: '127.0.0.1',
  port: 0,
  uiDir: false,
  dbPath: join(process.argv[2], 'weft.db'),
});
process.send?.({ url: server.url });
process.on('message', async () => {
  await server.close();
  process.exit(0);
});
