import { createServer } from 'node:net';
import { type CallItem, routes } from '@weft/protocol';
import { request } from 'undici';
import { startTestServer, type TestServer } from '@weft/test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run-cli.js';
import { CALLS_COLUMNS } from '../src/commands/calls/calls-table.js';
import { ExitCode } from '../src/exit/exit-code.js';
import { captureIo } from './support/capture-io.js';

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5, 6); // 2026-01-02 03:04:05.006
const id = (n: number) => `0193a1b2-c3d4-7e5f-8a9b-${n.toString(16).padStart(12, '0')}`;
const TRACE_A = id(1);
const TRACE_B = id(100);

// Trace A: answer → retrieve, generate → format; generate reports token usage.
// Trace B: one failed call. Plus one call still running.
// `generate` used a priced model (the SDK set its cost); the failed call an unpriced one (no cost field).
const usage = (total: number) => ({
  'gpt-4o-mini': {
    requests: 1,
    inputTokens: total - 34,
    outputTokens: 34,
    totalTokens: total,
    costUsd: 0.0123,
  },
});
const unpriced = { 'local-llama': { requests: 1, inputTokens: 480, outputTokens: 20, totalTokens: 500 } };
const items: CallItem[] = [
  // Children sent before their parent, ends before starts: the CLI must not care.
  { type: 'end', id: id(4), endedAt: T0 + 900, output: 'ok', summary: { latencyMs: 350, status: 'success' } },
  {
    type: 'start',
    id: id(4),
    traceId: TRACE_A,
    parentId: id(3),
    opName: 'format',
    startedAt: T0 + 550,
    inputs: {},
  },
  {
    type: 'complete',
    id: id(3),
    traceId: TRACE_A,
    parentId: TRACE_A,
    opName: 'weft:///cli-test/op/generate:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    startedAt: T0 + 500,
    endedAt: T0 + 1_750,
    inputs: {},
    summary: { latencyMs: 1_250, status: 'success', usage: usage(1_234), costUsd: 0.0123 },
  },
  {
    type: 'complete',
    id: id(2),
    traceId: TRACE_A,
    parentId: TRACE_A,
    opName: 'retrieve',
    startedAt: T0 + 20,
    endedAt: T0 + 140,
    inputs: {},
    summary: { latencyMs: 120, status: 'success' },
  },
  {
    type: 'complete',
    id: TRACE_A,
    traceId: TRACE_A,
    parentId: null,
    opName: 'answer',
    startedAt: T0,
    endedAt: T0 + 2_000,
    inputs: { question: 'why?' },
    summary: { latencyMs: 2_000, status: 'success', usage: usage(1_234), costUsd: 0.0123 },
  },
  {
    type: 'complete',
    id: TRACE_B,
    traceId: TRACE_B,
    parentId: null,
    opName: 'answer',
    startedAt: T0 + 10_000,
    endedAt: T0 + 10_005,
    inputs: {},
    exception: { name: 'Error', message: 'boom' },
    summary: { latencyMs: 5, status: 'error', usage: unpriced },
  },
  {
    type: 'start',
    id: id(200),
    traceId: id(200),
    parentId: null,
    opName: 'loop',
    startedAt: T0 + 20_000,
    inputs: {},
  },
];

const row = (
  started: string,
  op: string,
  status: string,
  latency: string,
  tokens: string,
  cost: string,
  n: number,
  trace: string,
) => [`2026-01-02 ${started}`, op, status, latency, tokens, cost, id(n), trace];
const ROW = {
  answerA: row('03:04:05.006', 'answer', 'success', '2.00 s', '1,234', '$0.0123', 1, TRACE_A),
  retrieve: row('03:04:05.026', '└─ retrieve', 'success', '120 ms', '-', '', 2, TRACE_A),
  generate: row('03:04:05.506', '└─ generate', 'success', '1.25 s', '1,234', '$0.0123', 3, TRACE_A),
  format: row('03:04:05.556', '  └─ format', 'success', '350 ms', '-', '', 4, TRACE_A),
  // Tokens of an unpriced model, and a blank cost: absent, never $0.
  answerB: row('03:04:15.006', 'answer', 'error', '5 ms', '500', '', 100, TRACE_B),
  running: row('03:04:25.006', 'loop', 'running', '-', '-', '', 200, id(200)),
};
const flat = (r: string[]) => [r[0]!, r[1]!.replace(/^\s*└─ /, ''), ...r.slice(2)];

/**
 * The header and data rows of a printed table, as cells cut at the columns
 * the rule under the header marks (cells themselves contain single spaces).
 */
function tableRows(printed: string): string[][] {
  const lines = printed.split('\n');
  const ruleAt = lines.findIndex((line) => line.startsWith('─'));
  expect(ruleAt).toBe(1);
  const spans = [...lines[ruleAt]!.matchAll(/─+/g)].map((m) => [m.index, m.index + m[0].length] as const);
  const cut = (line: string) => spans.map(([from, to]) => line.slice(from, to).trimEnd());
  const body = lines.slice(ruleAt + 1).filter((line) => /^\d{4}-\d\d-\d\d /.test(line));
  return [cut(lines[0]!), ...body.map(cut)];
}

let open: TestServer;
let guarded: TestServer;
const TOKEN = 'cli-test-token';

beforeAll(async () => {
  open = await startTestServer({ register: false });
  guarded = await startTestServer({ token: TOKEN, register: false });
  for (const [server, headers] of [
    [open, {}],
    [guarded, { authorization: `Bearer ${TOKEN}` }],
  ] as const) {
    const res = await request(new URL(routes.callBatch(), server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ project: 'cli-test', items }),
    });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
  }
});
afterAll(async () => {
  await Promise.all([open?.close(), guarded?.close()]);
});

async function weft(argv: string[], env: Record<string, string> = {}) {
  const io = captureIo(env);
  const code = await runCli(argv, io);
  return { code, out: io.out(), err: io.err() };
}

describe('weft calls against a real server', () => {
  it('lists the newest calls of a project first, one row per call, with a header', async () => {
    const { code, out, err } = await weft(['calls', '--url', open.url, '--project', 'cli-test']);
    expect(err).toBe('');
    expect(code).toBe(ExitCode.ok);
    const [head, ...rows] = tableRows(out);
    expect(head).toEqual([...CALLS_COLUMNS]);
    expect(rows).toEqual(
      [ROW.running, ROW.answerB, ROW.format, ROW.generate, ROW.retrieve, ROW.answerA].map(flat),
    );
    expect(out).toMatch(/^6 calls\.$/m);
  });

  it('prints one trace as a tree in start order', async () => {
    const { code, out } = await weft([
      'calls',
      '--url',
      open.url,
      '--project',
      'cli-test',
      '--trace',
      TRACE_A,
    ]);
    expect(code).toBe(ExitCode.ok);
    expect(tableRows(out).slice(1)).toEqual([ROW.answerA, ROW.retrieve, ROW.generate, ROW.format]);
  });

  it.each([
    { flags: ['--op', 'answer'], rows: [ROW.answerB, ROW.answerA] },
    { flags: ['--op', 'generate'], rows: [ROW.generate] },
    { flags: ['--status', 'error'], rows: [ROW.answerB] },
    { flags: ['--status', 'running'], rows: [ROW.running] },
    { flags: ['--op', 'answer', '--status', 'success'], rows: [ROW.answerA] },
  ])('filters with $flags', async ({ flags, rows }) => {
    const { code, out } = await weft(['calls', '--project', 'cli-test', ...flags], { WEFT_URL: open.url });
    expect(code).toBe(ExitCode.ok);
    expect(tableRows(out).slice(1)).toEqual(rows.map(flat));
  });

  it('pages through the server with --limit and says that more match', async () => {
    const { out } = await weft(['calls', '--url', open.url, '--project', 'cli-test', '--limit', '2']);
    expect(tableRows(out).slice(1)).toEqual([ROW.running, ROW.answerB].map(flat));
    expect(out).toMatch(/2 calls shown; more match \(raise --limit, now 2\)/);
  });

  it('prints the calls as JSON with --json', async () => {
    const { code, out } = await weft([
      'calls',
      '--url',
      open.url,
      '--project',
      'cli-test',
      '--trace',
      TRACE_B,
      '--json',
    ]);
    expect(code).toBe(ExitCode.ok);
    const calls = JSON.parse(out);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ id: TRACE_B, status: 'error', exception: { message: 'boom' } });
  });

  it('says so, and exits 0, when nothing matches in a project', async () => {
    const { code, out } = await weft(['calls', '--url', open.url, '--project', 'empty-project']);
    expect(code).toBe(ExitCode.ok);
    expect(out).toBe('No calls match in project empty-project.\n');
  });

  it.each([[], ['--json']])('exits 4 naming the trace when a trace has no calls (%j)', async (...extra) => {
    const missing = id(999);
    const argv = ['calls', '--url', open.url, '--project', 'cli-test', '--trace', missing, ...extra];
    const { code, out, err } = await weft(argv);
    expect(code).toBe(ExitCode.notFound);
    expect(out).toBe('');
    expect(err).toMatch(
      new RegExp(`^weft: error: No calls of trace ${missing} in project cli-test\\..*\\n$`),
    );
  });

  it('exits 0 with an empty answer when filters within an existing trace match nothing', async () => {
    const argv = [
      'calls',
      '--url',
      open.url,
      '--project',
      'cli-test',
      '--trace',
      TRACE_A,
      '--status',
      'error',
    ];
    const { code, out } = await weft(argv);
    expect(code).toBe(ExitCode.ok);
    expect(out).toBe('No calls match in project cli-test.\n');
  });

  it('exits 3 when the server wants a token and none or a wrong one is sent', async () => {
    for (const extra of [[], ['--token', 'wrong']]) {
      const { code, err } = await weft(['calls', '--url', guarded.url, '--project', 'cli-test', ...extra]);
      expect(code).toBe(ExitCode.authRefused);
      expect(err).toMatch(/^weft: error: .*--token or WEFT_API_KEY\.\n$/);
    }
  });

  it('authenticates with --token or WEFT_API_KEY', async () => {
    const viaFlag = await weft(['calls', '--url', guarded.url, '--project', 'cli-test', '--token', TOKEN]);
    const viaEnv = await weft(['calls', '--url', guarded.url, '--project', 'cli-test'], {
      WEFT_API_KEY: TOKEN,
    });
    for (const { code, out } of [viaFlag, viaEnv]) {
      expect(code).toBe(ExitCode.ok);
      expect(tableRows(out)).toHaveLength(7);
    }
  });

  it('exits 1 naming the URL and `weft serve` when no server answers', async () => {
    // A port that was just free: bind, read it, close.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const url = `http://127.0.0.1:${port}`;
    const { code, err } = await weft(['calls', '--project', 'cli-test'], { WEFT_URL: url });
    expect(code).toBe(ExitCode.failure);
    expect(err).toContain(`Server unreachable at ${url}`);
    expect(err).toContain('weft serve');
    expect(err.trim().split('\n')).toHaveLength(1);
  });
});
