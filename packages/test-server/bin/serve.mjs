// The child process of `startServerProcess`: the real Weft server from
// @weft/server's build on 127.0.0.1:WEFT_TEST_SERVER_PORT (0 = any free port), with
// SQLite at WEFT_TEST_SERVER_DB_PATH or the engine WEFT_TEST_SERVER_STORAGE names. Prints
// "listening on <url>" (as `weft serve` does) and runs until killed; SIGTERM
// closes it gracefully.
import { startServer } from '@weft/server';

const env = process.env;
const server = await startServer({
  host: '127.0.0.1',
  port: Number(env.WEFT_TEST_SERVER_PORT || '0'),
  dbPath: env.WEFT_TEST_SERVER_DB_PATH || undefined,
  storage: env.WEFT_TEST_SERVER_STORAGE || undefined,
  token: env.WEFT_TEST_SERVER_TOKEN || undefined,
  uiDir: false,
});
process.stdout.write(`listening on ${server.url}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
