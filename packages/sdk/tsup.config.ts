import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    eval: 'src/eval.ts',
    errors: 'src/errors.ts',
    diagnostics: 'src/diagnostics.ts',
    'testing/index': 'src/testing/index.ts',
    'outbox-admin/index': 'src/outbox-admin/index.ts',
    'integrations/openai/index': 'src/integrations/openai/index.ts',
    'integrations/anthropic/index': 'src/integrations/anthropic/index.ts',
    'otel/index': 'src/otel/index.ts',
    'integrations/ai-sdk/index': 'src/integrations/ai-sdk/index.ts',
    'integrations/mcp/index': 'src/integrations/mcp/index.ts',
    'monitor/index': 'src/monitor/index.ts',
    'replay/index': 'src/replay/index.ts',
  },
  format: ['esm'],
  // Members marked @internal stay out of the published declarations.
  // tsconfig.json is composite (for the root `tsc -b`); declaration bundling needs it off.
  dts: { compilerOptions: { composite: false, stripInternal: true } },
  clean: true,
  sourcemap: true,
  target: 'node20',
});
