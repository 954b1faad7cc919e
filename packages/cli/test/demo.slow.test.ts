import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PORT } from '@weft/protocol';
import { tempDir } from '@weft/test-server';
import { expect, it, onTestFinished } from 'vitest';

// `npm run demo` as a user runs it: the built packages, in a folder of its own.
const DEMO = fileURLToPath(new URL('../../../examples/demo.mjs', import.meta.url));

/** Holds the default port for the test, unless another program already does (then that one holds it). */
async function holdDefaultPort(): Promise<void> {
  const holder: Server = createServer();
  holder.listen(DEFAULT_PORT, '127.0.0.1');
  const outcome = await Promise.race([
    once(holder, 'listening').then(() => 'held' as const),
    once(holder, 'error').then(([error]) => (error as NodeJS.ErrnoException).code),
  ]);
  if (outcome === 'held') onTestFinished(() => new Promise<void>((resolve) => holder.close(() => resolve())));
  else expect(outcome).toBe('EADDRINUSE');
}

it('the demo’s closing hint names the port it really used when 7420 was taken (issue 25.14)', async () => {
  await holdDefaultPort();
  const cwd = await tempDir('weft-demo-');
  onTestFinished(() => rm(cwd, { recursive: true, force: true }));
  const child = spawn(process.execPath, [DEMO], {
    cwd,
    env: { ...process.env, WEFT_URL: '', WEFT_PROJECT: '' },
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
  const url = /Weft server running at (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
  expect(url?.[2]).not.toBe(String(DEFAULT_PORT));
  expect(out).toContain(
    `Next: \`npx weft serve --port ${url?.[2]}\` keeps the server up; open ${url?.[1]} to browse`,
  );
  expect(out).toContain(`npx weft calls --project quickstart --url ${url?.[1]}`);
  expect(out).not.toContain(`:${DEFAULT_PORT}`);
}, 60_000);
