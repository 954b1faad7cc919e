// The child of `startServerChild`: @weft/server's build on 127.0.0.1, any
// free port, with the options in WEFT_TEST_SERVER_OPTIONS (JSON). Prints
// "listening on <url>" once it listens and runs until killed.
import { startServer } from '../../dist/index.js';

const options = JSON.parse(process.env.WEFT_TEST_SERVER_OPTIONS ?? '{}');
const server = await startServer({ host: '127.0.0.1', port: 0, uiDir: false, ...options });
process.stdout.write(`listening on ${server.url}\n`);
