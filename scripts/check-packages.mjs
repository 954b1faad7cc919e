#!/usr/bin/env node
// Checks every publishable package as a user would receive it (CI runs this
// after the build): `npm pack --dry-run` holds exactly what a user needs (the
// built entry points, their declarations, README, CHANGELOG, LICENSE; no tests,
// no fixtures), every export is `types` + `default`, then publint (package.json against the files) and
// @arethetypeswrong/cli (types resolve for every export under node16 and bundlers).
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const ALLOWED = /^(dist\/|bin\/|otlp-proto\/|README\.md$|CHANGELOG\.md$|LICENSE$|package\.json$)/;
const FORBIDDEN = /(\.test\.|\/test\/|test-fixtures|__tests__|\.tsbuildinfo$)/;
const REQUIRED_META = ['description', 'license', 'repository', 'keywords', 'files', 'engines', 'exports'];

const packages = readdirSync(join(root, 'packages'))
  .map((dir) => ({
    dir: join(root, 'packages', dir),
    json: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')),
  }))
  .filter((p) => p.json.private !== true);

const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
let problems = 0;
const fail = (pkg, message) => {
  problems++;
  console.error(`✗ ${pkg}: ${message}`);
};

for (const { dir, json } of packages) {
  for (const key of REQUIRED_META)
    if (json[key] === undefined) fail(json.name, `package.json has no "${key}"`);
  const [packed] = JSON.parse(run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], dir));
  const files = packed.files.map((f) => f.path);
  for (const file of files) {
    if (!ALLOWED.test(file)) fail(json.name, `${file} is packed but is not something a user needs`);
    if (FORBIDDEN.test(file)) fail(json.name, `${file} is a test file`);
  }
  for (const needed of ['README.md', 'CHANGELOG.md', 'LICENSE']) {
    if (!files.includes(needed)) fail(json.name, `${needed} is missing from the package`);
  }
  // `types` first, then `default`: one ES module for `import` and for
  // `require` (Node ≥ 20.19 loads it), so a CommonJS app gets the same copy.
  for (const [subpath, entry] of Object.entries(json.exports)) {
    if (typeof entry === 'string') continue;
    if (Object.keys(entry).join() !== 'types,default')
      fail(
        json.name,
        `exports["${subpath}"] has conditions ${Object.keys(entry).join(', ')}; expected types, default`,
      );
  }
  for (const target of Object.values(json.exports).flatMap((e) =>
    typeof e === 'string' ? [e] : Object.values(e),
  )) {
    if (!files.includes(target.replace(/^\.\//, '')))
      fail(json.name, `exports names ${target}, which is not packed`);
  }
  try {
    run('npx', ['publint', '--strict'], dir);
  } catch (error) {
    fail(json.name, `publint:\n${error.stdout}${error.stderr}`);
  }
  try {
    run('npx', ['attw', '--pack', '.', '--profile', 'esm-only', '--format', 'ascii'], dir);
  } catch (error) {
    fail(json.name, `@arethetypeswrong/cli:\n${error.stdout}${error.stderr}`);
  }
  console.log(
    `✓ ${json.name}: ${files.length} files, ${(packed.unpackedSize / 1024).toFixed(0)} KiB unpacked`,
  );
}
if (problems > 0) {
  console.error(`${problems} package problem(s)`);
  process.exit(1);
}
