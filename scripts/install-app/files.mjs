// The files of the app that scripts/check-install.mjs installs Weft into: the
// traced script a user would write (ESM, and the same as CommonJS), and a
// TypeScript file type-checked under three module settings.

/**
 * Two nested ops, one trace. Each op has an explicit `name`: a bundler that
 * minifies renames `function answer`, and the name is what the trace shows.
 * No top-level await, so esbuild can bundle it to CommonJS too. The project
 * comes from WEFT_PROJECT, the server from WEFT_URL.
 */
const traceBody = `
weft.init();

const retrieve = weft.op(
  async function retrieve(question) {
    return [\`a document about \${question}\`];
  },
  { name: 'retrieve' },
);
const answer = weft.op(
  async function answer(question) {
    const docs = await retrieve(question);
    return { text: \`\${question}? \${docs.length} document(s)\` };
  },
  { name: 'answer' },
);

async function main() {
  await answer('what is weft');
  const result = await weft.flush();
  if (result.sent !== 2) throw new Error(\`expected 2 calls sent, flush says \${JSON.stringify(result)}\`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
`;

/**
 * Uses the public types the way an app does; `@ts-expect-error` lines fail
 * the check if a declaration resolves to `any` (then nothing is an error).
 */
const typed = `
import * as weft from '@weft/sdk';
import { hasCode, type WeftErrorCode } from '@weft/sdk/errors';
import { Evaluation, scorers } from '@weft/sdk/eval';
import { parseRef, type Ref } from '@weft/protocol';
// The zod-free subpaths, as a browser bundle takes them.
import { formatUsd } from '@weft/protocol/pricing';
import { tryParseRef } from '@weft/protocol/refs';
import { routes } from '@weft/protocol/wire';
import { startServer } from '@weft/server';

const client: weft.WeftClient = weft.init({ project: 'typed', maxBatchBytes: 500_000 });
const answer = weft.op(async (question: string) => ({ text: question.length }), { name: 'answer' });
const reply: Promise<{ text: number }> = answer('q');
const flushed: Promise<weft.FlushResult> = client.flush();
const pages: weft.CallPages = client.getCalls({ limit: 1 });
// @ts-expect-error: CallPages is what getCalls returns, not a class an app constructs
void new weft.CallPages(undefined as never, 'typed', {});
// @ts-expect-error: an option that does not exist
weft.init({ projet: 'typo' });
// @ts-expect-error: the op keeps its parameter types
void answer(42);

function codeOf(error: unknown): WeftErrorCode | undefined {
  if (hasCode(error, 'WEFT_NOT_INITIALIZED')) return error.code;
  // @ts-expect-error: not a code Weft has
  if (hasCode(error, 'WEFT_NO_SUCH_CODE')) return undefined;
  return undefined;
}

const evaluation = new Evaluation({
  name: 'typed',
  dataset: [{ question: 'q', expected: 'q' }],
  scorers: [scorers.exactMatch()],
});
const ref: Ref = parseRef('weft:///typed/call/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b');
const malformed: Ref | undefined = tryParseRef('weft:///typed/call/not-a-uuid');
const cost: string = formatUsd(0.5);
const path: string = routes.callQuery();
const started: Promise<{ url: string }> = startServer({ port: 0, dbPath: ':memory:' });
export { codeOf, cost, evaluation, flushed, malformed, pages, path, ref, reply, started };
`;

export const APP_FILES = {
  'trace.mjs': `import * as weft from '@weft/sdk';\n${traceBody}`,
  'trace.cjs': `const weft = require('@weft/sdk');\n${traceBody}`,
  'typed.mts': typed,
  'typed.cts': typed,
  'typed.ts': typed,
};

const strict = { strict: true, noEmit: true, skipLibCheck: false, types: ['node'], target: 'ES2022' };

/** One tsconfig per way an app resolves modules: [label, file name, config]. */
export const TSCONFIGS = [
  [
    'node16 (ESM)',
    'tsconfig.node16.json',
    { compilerOptions: { ...strict, module: 'node16', moduleResolution: 'node16' }, files: ['typed.mts'] },
  ],
  [
    'nodenext (CommonJS, require of ESM)',
    'tsconfig.nodenext-cjs.json',
    {
      compilerOptions: { ...strict, module: 'nodenext', moduleResolution: 'nodenext' },
      files: ['typed.cts'],
    },
  ],
  [
    'bundler',
    'tsconfig.bundler.json',
    { compilerOptions: { ...strict, module: 'esnext', moduleResolution: 'bundler' }, files: ['typed.ts'] },
  ],
];
