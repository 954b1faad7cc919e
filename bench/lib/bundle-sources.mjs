// Bundles TypeScript sources of the repo into one ESM file with esbuild, so a
// bench runs the SDK (and, if it wants, the server) without a build step, as
// the test harness does. Bare imports other than @weft/protocol stay external.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** `p` (relative to the repo root) as a JSON string literal, for `import … from ${src(p)}` in bundle contents. */
export const src = (p) => JSON.stringify(join(root, p));

/** Bundles `contents` (imports of TypeScript sources) as `name` and imports it. */
export async function bundleSources(name, contents) {
  const outDir = join(root, 'node_modules/.cache/weft-bench');
  await mkdir(outDir, { recursive: true });
  const outfile = join(outDir, `${name}.mjs`);
  await build({
    stdin: { contents, resolveDir: root, loader: 'ts' },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    plugins: [
      {
        name: 'weft-sources',
        setup(b) {
          b.onResolve({ filter: /^@weft\/protocol$/ }, () => ({
            path: join(root, 'packages/protocol/src/index.ts'),
          }));
          b.onResolve({ filter: /^[^./]/ }, (a) => ({ path: a.path, external: true }));
          // version.ts reads `../package.json` relative to its own file, which a bundle elsewhere cannot.
          b.onLoad({ filter: /packages[\\/]server[\\/]src[\\/]version\.ts$/ }, () => ({
            contents: "export const SERVER_VERSION = '0.0.0-bench';",
            loader: 'ts',
          }));
        },
      },
    ],
  });
  return import(pathToFileURL(outfile).href);
}
