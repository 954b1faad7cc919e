// Installs chDB — ClickHouse 26.x as a library (npm `chdb` with its platform
// package, ~550 MB) — into this repo's node_modules WITHOUT recording it in
// package.json or the lockfile. @weft/server declares it an optional peer
// dependency, so `npm ci && npm run demo` never downloads it; what needs it
// calls this script: CI (.ci/run) and the server-chdb tests' global setup.
// A no-op when the pinned version is already there.
//
//   node scripts/install-chdb.mjs
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The chDB release the tests and docs are written for (its engine: ClickHouse 26.7). */
export const CHDB_VERSION = '3.4.0';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The installed chDB version seen from @weft/server, or undefined. */
export function installedChdbVersion() {
  const require = createRequire(new URL('../packages/server/package.json', import.meta.url));
  try {
    const manifest = require.resolve('chdb/package.json');
    return JSON.parse(readFileSync(manifest, 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** Installs chDB unless the pinned version is present; returns what it did. */
export function installChdb() {
  const found = installedChdbVersion();
  if (found === CHDB_VERSION) return `chdb ${CHDB_VERSION} already installed`;
  execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', `chdb@${CHDB_VERSION}`], {
    cwd: root,
    stdio: 'inherit',
  });
  return `installed chdb ${CHDB_VERSION}${found ? ` (was ${found})` : ''}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(`${installChdb()}\n`);
}
