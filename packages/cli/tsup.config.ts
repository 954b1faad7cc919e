import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/bin.ts'],
  format: ['esm'],
  // tsconfig.json is composite (for the root `tsc -b`); declaration bundling needs it off.
  dts: { entry: 'src/index.ts', compilerOptions: { composite: false } },
  clean: true,
  sourcemap: true,
  target: 'node20',
  // Only the binary needs the shebang, but tsup applies banners per build; a
  // shebang line is harmless at the top of an ES module imported by Node.
  banner: { js: '#!/usr/bin/env node' },
});
