import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests run against each package's TypeScript source, so a change is tested
// without rebuilding its dependencies first.
const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));
const alias = [
  { find: /^@weft\/protocol$/, replacement: src('protocol') },
  { find: /^@weft\/server$/, replacement: src('server') },
  { find: /^weft$/, replacement: src('weft') },
  {
    find: /^weft\/openai$/,
    replacement: fileURLToPath(new URL('./packages/weft/src/integrations/openai/index.ts', import.meta.url)),
  },
  {
    find: /^weft\/anthropic$/,
    replacement: fileURLToPath(
      new URL('./packages/weft/src/integrations/anthropic/index.ts', import.meta.url),
    ),
  },
  {
    find: /^weft\/outbox$/,
    replacement: fileURLToPath(new URL('./packages/weft/src/outbox-admin/index.ts', import.meta.url)),
  },
];

const project = (name: string, extra: Record<string, unknown> = {}) => ({
  resolve: { alias },
  test: {
    name,
    root: `packages/${name}`,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    ...extra,
  },
});

export default defineConfig({
  test: {
    projects: [project('protocol'), project('weft'), project('server'), project('cli'), project('ui')],
  },
});
