import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type CallItem, routes } from '@weft/protocol';
import { startTestServer, type TestServer, tempDir } from '@weft/test-server';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run-cli.js';
import { ExitCode } from '../src/exit/exit-code.js';
import { captureIo } from './support/capture-io.js';

/*
 * The lifecycle commands (issue 28) against a real server: `weft calls
 * delete` (dry run first), `weft calls export` and `weft projects retention`.
 */
const ADMIN = 'cli-admin-token';
const SCOPED = 'cli-project-token';
const T0 = Date.UTC(2026, 0, 2);
const id = (n: number) => `0193a1b2-c3d4-7e5f-8a9b-${n.toString(16).padStart(12, '0')}`;
let server: TestServer;
let dir: string;

/** Six one-call traces: users u0 and u1 alternate, each call with its own word. */
const items: CallItem[] = Array.from({ length: 6 }, (_, n) => ({
  type: 'complete',
  id: id(n + 1),
  traceId: id(n + 1),
  parentId: null,
  opName: 'answer',
  startedAt: T0 + n * 1_000,
  endedAt: T0 + n * 1_000 + 5,
  inputs: { q: `word${n}` },
  attributes: { 'user.id': `u${n % 2}` },
}));

beforeAll(async () => {
  dir = await tempDir();
  server = await startTestServer({ token: ADMIN, projectTokens: { [SCOPED]: ['life'] }, register: false });
  const res = await request(new URL(routes.callBatch(), server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
    body: JSON.stringify({ project: 'life', items }),
  });
  expect(res.statusCode).toBe(200);
  await res.body.dump();
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

async function weft(argv: string[], token = ADMIN) {
  const io = captureIo({ WEFT_URL: server.url, WEFT_API_KEY: token, WEFT_PROJECT: 'life' });
  const code = await runCli(argv, io);
  return { code, out: io.out(), err: io.err() };
}

describe('weft calls export', () => {
  it('writes JSON Lines to standard output, one call per line, filtered', async () => {
    const { code, out, err } = await weft(['calls', 'export', '--user', 'u1']);
    expect(err).toBe('');
    expect(code).toBe(ExitCode.ok);
    const calls = out
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(calls.map((call) => call.id).sort()).toEqual([id(2), id(4), id(6)]);
  });

  it('writes Parquet to a file, and refuses Parquet to standard output', async () => {
    const out = join(dir, 'calls.parquet');
    const { code } = await weft(['calls', 'export', '--format', 'parquet', '--out', out]);
    expect(code).toBe(ExitCode.ok);
    // A Parquet file begins and ends with its magic (the server's tests read one back whole).
    const bytes = await readFile(out);
    expect(bytes.subarray(0, 4).toString()).toBe('PAR1');
    expect(bytes.subarray(-4).toString()).toBe('PAR1');
    const refused = await weft(['calls', 'export', '--format', 'parquet']);
    expect(refused.code).toBe(ExitCode.usage);
    expect(refused.err).toContain('--out');
  });
});

describe('weft projects retention', () => {
  it('shows the retention in force, sets it with the admin token, and refuses bad days', async () => {
    expect((await weft(['projects', 'retention'])).out).toContain('life: kept until deleted');
    const set = await weft(['projects', 'retention', '--set', '30', '--json']);
    expect(set.code).toBe(ExitCode.ok);
    expect(JSON.parse(set.out)).toMatchObject({
      project: 'life',
      retentionDays: 30,
      effectiveRetentionDays: 30,
    });
    const bad = await weft(['projects', 'retention', '--set', '0']);
    expect(bad.code).toBe(ExitCode.usage);
    expect(bad.err).toContain('--set');
    const scoped = await weft(['projects', 'retention', '--set', '7'], SCOPED);
    expect(scoped.code).toBe(ExitCode.authRefused);
    expect(scoped.err).toContain('admin token');
    expect((await weft(['projects', 'retention', '--set', 'none'])).out).toContain(
      'life: kept until deleted',
    );
  });
});

describe('weft calls delete', () => {
  it('counts with --dry-run, then deletes the same traces whole', async () => {
    const dry = await weft(['calls', 'delete', '--user', 'u0', '--dry-run', '--json']);
    expect(dry.err).toBe('');
    expect(JSON.parse(dry.out)).toEqual({ traces: 3, calls: 3, values: 0, files: 0, dryRun: true });
    expect((await weft(['calls', 'export'])).out.trimEnd().split('\n')).toHaveLength(6);
    const done = await weft(['calls', 'delete', '--user', 'u0']);
    expect(done.code).toBe(ExitCode.ok);
    expect(done.out).toBe('Deleted 3 traces (3 calls, 0 values, 0 files) from life.\n');
    const left = (await weft(['calls', 'export'])).out;
    expect(left).not.toContain('word0');
    expect(left.trimEnd().split('\n')).toHaveLength(3);
  });

  it('refuses a deletion without a filter or project, and a project token, deleting nothing', async () => {
    const bare = await weft(['calls', 'delete']);
    expect(bare.code).toBe(ExitCode.usage);
    expect(bare.err).toContain('--all');
    const io = captureIo({ WEFT_URL: server.url, WEFT_API_KEY: ADMIN });
    expect(await runCli(['calls', 'delete', '--all'], io)).toBe(ExitCode.usage);
    expect(io.err()).toContain('--project');
    const scoped = await weft(['calls', 'delete', '--all'], SCOPED);
    expect(scoped.code).toBe(ExitCode.authRefused);
    expect(scoped.err).toContain('admin token');
    expect((await weft(['calls', 'export'])).out.trimEnd().split('\n')).toHaveLength(3);
  });
});
