import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@weft/test-server';
import { listServerCalls, runChild } from '../support/index.js';

// `weft` has no hard dependency on OpenTelemetry: the BUILT package (what
// users install, through node_modules/weft → dist) is imported and used in a
// child process where every `@opentelemetry/*` package is unresolvable and
// each attempt to load one is recorded (fixtures/no-otel/block-otel.mjs).
// The control run shows the blocker works: `@weft/sdk/ai-sdk`, which does import
// the OTel API, fails there and is recorded trying.

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/no-otel/${name}`, import.meta.url));

let server: TestServer;
beforeAll(async () => {
  const dist = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
  if (!existsSync(dist))
    throw new Error(
      `${dist} is missing: this test runs the built package; run \`npx turbo run build\` first.`,
    );
  server = await startTestServer({ register: afterAll });
});

interface ChildResult {
  ok: boolean;
  sum?: number;
  sent?: number;
  error?: string;
  attempts: string[];
  otelGlobal: boolean;
}

async function runWithoutOtel(entry: string): Promise<ChildResult> {
  const child = await runChild(fixture('use-weft.mjs'), {
    args: [entry],
    env: { WEFT_URL: server.url },
    execArgv: ['--import', fixture('block-otel.mjs')],
  });
  const line = await child.waitForLine(/^\{/);
  expect(await child.exited).toEqual({ code: 0, signal: null });
  return JSON.parse(line) as ChildResult;
}

it('the built `weft` imports, traces and flushes with @opentelemetry/api unresolvable, and never tries to load it', async () => {
  const result = await runWithoutOtel('@weft/sdk');
  expect(result).toEqual({ ok: true, sum: 5, sent: 1, attempts: [], otelGlobal: false });
  const calls = await listServerCalls(server.url, 'no-otel');
  expect(calls.map((call) => call.opName)).toEqual(['add']);
  // `@weft/sdk/otel` (the span processor) needs no OpenTelemetry package to load either.
  expect(await runWithoutOtel('@weft/sdk/otel')).toEqual({ ok: true, attempts: [], otelGlobal: false });
});

it('control: an entry point that does import @opentelemetry/api fails there, and the attempt is recorded', async () => {
  const result = await runWithoutOtel('@weft/sdk/ai-sdk');
  expect(result.ok).toBe(false);
  expect(result.error).toContain('@opentelemetry/');
  expect(result.attempts.some((attempt) => attempt.includes('@opentelemetry/'))).toBe(true);
});
