#!/usr/bin/env node
// Uses Weft as an app outside this repo would (CI runs it after the build;
// locally `npm run check:install`, `--keep` leaves the app in place):
//
//   1. `npm pack` every publishable package;
//   2. install the tarballs into a fresh app in the OS temp folder, with their
//      dependencies from the registry (nothing else, see `install`);
//   3. start `weft serve` from the installed CLI on a free port;
//   4. run one traced script as ESM, as CommonJS (require(esm), Node ≥ 20.19)
//      and bundled and minified by esbuild, each into its own project, and read
//      each trace back with the installed `weft calls --json`;
//   5. type-check a TypeScript file against the installed declarations with
//      the repo's TypeScript, under `moduleResolution` node16, nodenext
//      (CommonJS) and bundler.
//
// One app serves every variant, so the install is paid once. Each step prints
// its time; any failure exits 1 with what went wrong.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_FILES, TSCONFIGS } from './install-app/files.mjs';

const root = join(new URL('..', import.meta.url).pathname);
const keep = process.argv.includes('--keep');
const repoModule = (name) => join(root, 'node_modules', name);
const versionOf = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;

const run = (cmd, args, cwd, env = {}) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });

async function step(name, fn) {
  const started = performance.now();
  try {
    const result = await fn();
    console.log(`✓ ${name} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    return result;
  } catch (error) {
    console.error(`✗ ${name}: ${error.stderr || ''}${error.stdout || ''}${error.stack ?? error}`);
    throw error;
  }
}

function pack(tarballs) {
  const publishable = readdirSync(join(root, 'packages'))
    .map((dir) => join(root, 'packages', dir))
    .filter((dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).private !== true);
  return publishable.map((dir) => {
    const [packed] = JSON.parse(
      run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tarballs], dir),
    );
    return { name: packed.name, file: join(tarballs, packed.filename) };
  });
}

/**
 * The app depends on the tarballs (npm places each package's dependency on
 * another @weft package on the tarball, whose version it satisfies) and takes
 * the rest from the registry. Install scripts are skipped: better-sqlite3's
 * would download a prebuilt binary from outside the registry or compile
 * SQLite for minutes, so the binary the repo's own install built for this
 * Node is copied in, with better-sqlite3 pinned to the repo's version.
 */
function install(app, packed) {
  const sqlite = repoModule('better-sqlite3');
  const manifest = {
    name: 'weft-install-check',
    private: true,
    dependencies: {
      ...Object.fromEntries(packed.map((p) => [p.name, `file:${p.file}`])),
      '@types/node': versionOf(repoModule('@types/node')),
    },
    overrides: { 'better-sqlite3': versionOf(sqlite) },
  };
  writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], app);
  const binary = join('build', 'Release', 'better_sqlite3.node');
  mkdirSync(join(app, 'node_modules', 'better-sqlite3', 'build', 'Release'), { recursive: true });
  copyFileSync(join(sqlite, binary), join(app, 'node_modules', 'better-sqlite3', binary));
}

/** Starts the installed `weft serve` on a free port; resolves with its URL and a stop function. */
async function serve(app) {
  const child = spawn(
    join(app, 'node_modules', '.bin', 'weft'),
    ['serve', '--port', '0', '--db', join(app, '.weft', 'weft.db')],
    { cwd: app, env: { ...process.env, WEFT_URL: '', WEFT_API_KEY: '' } },
  );
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8').on('data', (chunk) => (err += chunk));
  const exited = once(child, 'exit');
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    exited.then(([code]) => reject(new Error(`weft serve exited (${code}) before listening:\n${err}`)));
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  return { url, stop };
}

/** Reads a project's calls back with the installed CLI and checks the trace the script made. */
function expectTrace(app, url, project) {
  const calls = JSON.parse(
    run(
      join(app, 'node_modules', '.bin', 'weft'),
      ['calls', '--project', project, '--json', '--url', url],
      app,
    ),
  );
  const byName = (name) => calls.find((c) => c.opName.includes(`/op/${name}:`) || c.opName === name);
  const answer = byName('answer');
  const retrieve = byName('retrieve');
  const problems = [];
  if (calls.length !== 2) problems.push(`expected 2 calls, found ${calls.length}`);
  if (answer === undefined || retrieve === undefined)
    problems.push(`expected ops answer and retrieve, found ${calls.map((c) => c.opName).join(', ')}`);
  else {
    if (answer.parentId !== null) problems.push('answer is not the root');
    if (retrieve.parentId !== answer.id) problems.push('retrieve is not a child of answer');
    if (answer.status !== 'success' || retrieve.status !== 'success') problems.push('a call did not succeed');
    if (answer.output?.text !== 'what is weft? 1 document(s)')
      problems.push(`answer's output is ${JSON.stringify(answer.output)}`);
  }
  if (problems.length > 0) throw new Error(`project ${project}: ${problems.join('; ')}`);
}

const work = mkdtempSync(join(tmpdir(), 'weft-install-'));
const app = join(work, 'app');
const tarballs = join(work, 'tarballs');
mkdirSync(app);
mkdirSync(tarballs);
let server;
let failed = false;
try {
  const packed = await step('npm pack every publishable package', () => pack(tarballs));
  console.log(`  ${packed.map((p) => p.name).join(', ')}`);
  await step(`npm install the tarballs into ${app}`, () => install(app, packed));
  for (const [name, text] of Object.entries(APP_FILES)) writeFileSync(join(app, name), text);
  server = await step('weft serve (installed CLI, free port)', () => serve(app));
  const env = { WEFT_URL: server.url, WEFT_API_KEY: '' };
  for (const [label, file, project] of [
    ['ESM', 'trace.mjs', 'install-esm'],
    ['CommonJS (require)', 'trace.cjs', 'install-cjs'],
  ]) {
    await step(`${label}: trace, read back with weft calls --json`, () => {
      run(process.execPath, [file], app, { ...env, WEFT_PROJECT: project });
      expectTrace(app, server.url, project);
    });
  }
  await step('esbuild --bundle --minify: op names survive, trace read back', () => {
    // The repo's esbuild, resolving @weft/sdk from the app's node_modules.
    run(
      join(repoModule('.bin'), 'esbuild'),
      ['trace.mjs', '--bundle', '--minify', '--platform=node', '--format=cjs', '--outfile=dist/trace.cjs'],
      app,
    );
    run(process.execPath, ['dist/trace.cjs'], app, { ...env, WEFT_PROJECT: 'install-bundle' });
    expectTrace(app, server.url, 'install-bundle');
  });
  const tsc = join(repoModule('typescript'), 'bin', 'tsc');
  // One `tsc -b` for the three settings: it shares the parsed declarations.
  await step(`tsc -b: ${TSCONFIGS.map(([label]) => label).join('; ')}`, () => {
    for (const [, file, config] of TSCONFIGS) writeFileSync(join(app, file), JSON.stringify(config, null, 2));
    run(process.execPath, [tsc, '-b', ...TSCONFIGS.map(([, file]) => file)], app);
  });
} catch {
  failed = true;
} finally {
  await server?.stop();
  if (keep || failed) console.log(`app kept in ${app}`);
  else rmSync(work, { recursive: true, force: true });
}
if (failed) process.exit(1);
