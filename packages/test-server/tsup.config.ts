import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  // tsconfig.json is composite (for the root `tsc -b`); declaration bundling needs it off.
  dts: { compilerOptions: { composite: false } },
  // Resolved from the repo at run time: @weft/server (its build) and vitest (the test runner's own copy).
  external: ['@weft/server', 'vitest'],
  clean: true,
  sourcemap: true,
  target: 'node20',
});
