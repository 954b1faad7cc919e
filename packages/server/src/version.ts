import { createRequire } from 'node:module';

// This file sits at the top of src/, and tsup bundles it into dist/index.js,
// so `../package.json` names the package manifest from source and build alike.
const manifest = createRequire(import.meta.url)('../package.json') as { version: string };

/** The `@weft/server` package version, reported by the version endpoint. */
export const SERVER_VERSION: string = manifest.version;
