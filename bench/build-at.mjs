#!/usr/bin/env node
// Builds @weft/protocol and @weft/server as they were at a commit, for A/B runs of
// the server benches against an older build (WEFT_BENCH_SERVER_ENTRY of bench/ingest.mjs,
// --base of bench/ingest-storage-ab.mjs). The commit's tree is exported to DIR (no
// worktree, no install): DIR/node_modules links every package of this checkout's
// node_modules except @weft/*, which point at DIR's own packages, so the old server
// imports the old protocol. Only JavaScript is built (no type declarations).
//
//   node bench/build-at.mjs 4ad65be /tmp/weft-4ad65be
//   WEFT_BENCH_SERVER_ENTRY=/tmp/weft-4ad65be/packages/server/dist/index.js node bench/ingest.mjs …
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [commit, dirArg] = process.argv.slice(2);
if (commit === undefined || dirArg === undefined)
  throw new Error('usage: node bench/build-at.mjs COMMIT DIR');
const root = resolve(new URL('..', import.meta.url).pathname);
const dir = resolve(dirArg);

rmSync(dir, { recursive: true, force: true });
mkdirSync(join(dir, 'node_modules', '@weft'), { recursive: true });
const tree = execFileSync('git', ['-C', root, 'archive', commit], { maxBuffer: 1 << 30 });
execFileSync('tar', ['-x', '-C', dir], { input: tree });

for (const name of readdirSync(join(root, 'node_modules'))) {
  if (name !== '@weft') symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name));
}
for (const folder of readdirSync(join(dir, 'packages'))) {
  const pkg = JSON.parse(readFileSync(join(dir, 'packages', folder, 'package.json'), 'utf8'));
  symlinkSync(join(dir, 'packages', folder), join(dir, 'node_modules', pkg.name));
}
for (const folder of ['protocol', 'server']) {
  execFileSync(join(root, 'node_modules', '.bin', 'tsup'), ['--no-dts'], {
    cwd: join(dir, 'packages', folder),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
process.stdout.write(`${join(dir, 'packages', 'server', 'dist', 'index.js')}\n`);
