import { defineConfig } from 'tsup';

export default defineConfig({
  // The root, and subpaths that load neither zod nor node: built-ins (the web UI
  // imports them; .dependency-cruiser.cjs holds them to it).
  entry: {
    index: 'src/index.ts',
    'wire/index': 'src/wire/index.ts',
    'refs/index': 'src/refs/index.ts',
    'msgpack/index': 'src/msgpack/index.ts',
    'pricing/index': 'src/pricing/index.ts',
    'errors/index': 'src/errors/index.ts',
    'trace/index': 'src/trace/index.ts',
    'messages/index': 'src/messages/index.ts',
  },
  format: ['esm'],
  // tsconfig.json is composite (for the root `tsc -b`); declaration bundling needs it off.
  dts: { compilerOptions: { composite: false } },
  clean: true,
  sourcemap: true,
  target: 'node20',
});
