import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const entry = fileURLToPath(import.meta.resolve('@weft/sdk'));

it('importing weft allocates no large buffer (the encoder takes its arena at its first record)', async () => {
  // A fresh process: what `import '@weft/sdk'` keeps in memory outside the JS heap.
  // Collected before and after, so the loader's transient source buffers
  // (0.7–1.1 MB, varying run to run) do not count, and what is retained does.
  const script = `
    gc();
    const before = process.memoryUsage().arrayBuffers;
    await import(${JSON.stringify(entry)});
    gc();
    console.log(process.memoryUsage().arrayBuffers - before);
  `;
  const { stdout } = await run(process.execPath, ['--expose-gc', '--input-type=module', '-e', script]);
  const added = Number(stdout.trim());
  expect(Number.isFinite(added)).toBe(true);
  // The 4 MiB arena used to be taken at import; what import retains now is
  // ~60 KB, the dependencies' own.
  expect(added).toBeLessThan(512 * 1024);
});
