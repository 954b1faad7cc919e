import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package manifest: the nearest `package.json` above this module. That
 * is `packages/server/package.json` from source (`src/version/`) and from the
 * bundle (`dist/`, which tsup fills) alike, however deep the file sits.
 */
function packageManifest(): { version: string } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
    } catch (error) {
      const parent = dirname(dir);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === dir) throw error;
      dir = parent;
    }
  }
}

/** The `@weft/server` package version, reported by the version endpoint. */
export const SERVER_VERSION: string = packageManifest().version;
