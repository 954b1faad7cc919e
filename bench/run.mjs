// Runs every benchmark script in bench/ (each *.mjs except this one), one
// after another, each in its own `node --expose-gc` process. Each script
// writes its own section of bench/RESULTS.md and its raw figures to
// bench/out/<name>.json; this runner only sequences them and reports failures.
//
//   npm run bench            # builds the packages first (turbo), then this
//   node bench/run.mjs [name …]   # only the named scripts, e.g. sdk-tracing
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2).map((n) => n.replace(/\.mjs$/, ''));
const scripts = (await readdir(here))
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs' && !f.startsWith('.'))
  .filter((f) => only.length === 0 || only.includes(f.replace(/\.mjs$/, '')))
  .sort();

const failed = [];
for (const script of scripts) {
  const started = Date.now();
  process.stdout.write(`\n=== ${script}\n`);
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', join(here, script)], {
      stdio: 'inherit',
      cwd: join(here, '..'),
    });
    child.on('exit', (c, signal) => resolve(signal ? 1 : (c ?? 1)));
  });
  process.stdout.write(
    `=== ${script}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  if (code !== 0) failed.push(script);
}
if (failed.length > 0) {
  process.stdout.write(`\nFailed: ${failed.join(', ')}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write('\nAll benchmarks ran; see bench/RESULTS.md and bench/out/.\n');
}
