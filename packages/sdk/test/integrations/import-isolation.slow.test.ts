import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { runChild } from '../support/index.js';

const script = fileURLToPath(new URL('../fixtures/import-weft-child.ts', import.meta.url));

/** `--import` code that registers a resolve hook appending every resolved URL to the file named by WEFT_RESOLVE_LOG. */
const hook = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.WEFT_RESOLVE_LOG, result.url + '\\n');
  return result;
}`;
const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;

async function resolvedUrls(args: string[]): Promise<string[]> {
  const log = join(tmpdir(), `weft-resolve-${process.pid}-${Date.now()}-${args.length}.log`);
  const child = await runChild(script, {
    args,
    env: { WEFT_RESOLVE_LOG: log },
    execArgv: ['--import', `data:text/javascript,${encodeURIComponent(register)}`],
  });
  await child.waitForLine('loaded function');
  await child.exited;
  try {
    return (await readFile(log, 'utf8')).split('\n');
  } finally {
    await rm(log, { force: true });
  }
}

const clientPackages = (urls: string[]) =>
  urls.filter((url) => /node_modules\/(openai|@anthropic-ai\/sdk)\//.test(url));

it("import '@weft/sdk' loads neither openai nor @anthropic-ai/sdk (nor do the integrations themselves)", async () => {
  const plain = await resolvedUrls([]);
  expect(plain.some((url) => url.includes('node_modules/undici/'))).toBe(true); // the hook sees weft's own dependencies
  expect(clientPackages(plain)).toEqual([]);
  // Control: with the integrations imported, still nothing until the program imports `openai` itself.
  const withIntegrations = await resolvedUrls(['integrations']);
  expect(clientPackages(withIntegrations).length).toBeGreaterThan(0);
  expect(clientPackages(withIntegrations).every((url) => url.includes('node_modules/openai/'))).toBe(true);
});
