import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  // tsconfig.json is composite (for the root `tsc -b`); declaration bundling needs it off.
  dts: { compilerOptions: { composite: false } },
  clean: true,
  sourcemap: true,
  target: 'node20',
});
