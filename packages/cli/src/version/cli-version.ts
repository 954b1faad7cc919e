import { readFileSync } from 'node:fs';

/** This package's version, as `weft --version` prints it. */
export function cliVersion(): string {
  // package.json is one folder up from the bundle (dist/*.js) and two from
  // the sources tests run (src/version/*.ts); the name check tells them apart.
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === '@weft/cli' && pkg.version) return pkg.version;
    } catch {
      // Not at this level; try the next.
    }
  }
  return '0.0.0';
}
