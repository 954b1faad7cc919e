// A real Weft server in a child process with its own SQLite file (in a
// temporary folder), so a bench measures the SDK's process alone.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Starts the server; `stop()` closes it, removes its folder and resolves to the SQLite file's size. */
export async function startBenchServer(name = 'weft-bench') {
  const dir = await mkdtemp(join(tmpdir(), `${name}-`));
  const child = fork(fileURLToPath(new URL('./serve-child.mjs', import.meta.url)), [dir], {
    stdio: 'inherit',
  });
  const { url } = await new Promise((resolve) => child.once('message', resolve));
  return {
    url,
    async stop() {
      child.send('stop');
      await once(child, 'exit');
      const dbBytes = (await stat(join(dir, 'weft.db'))).size;
      await rm(dir, { recursive: true, force: true });
      return dbBytes;
    },
  };
}

/** Deterministic text of `n` characters, different per `seed` (not compressible into repeats of one word). */
export function benchText(seed, n) {
  const words = [
    'model',
    'tool',
    'answer',
    'token',
    'trace',
    'value',
    'server',
    'history',
    'prompt',
    'agent',
    'call',
    'digest',
  ];
  let out = `${seed}:`;
  let x = seed * 7919 + 17;
  while (out.length < n) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out += `${words[x % words.length]} `;
  }
  return out.slice(0, n);
}
