import {
  type CallItem,
  EVALUATE_OP,
  type EvaluationRowResult,
  type EvaluationSummary,
  PREDICT_AND_SCORE_OP,
  routes,
} from '@weft/protocol';
import { startTestServer, type TestServer } from '@weft/test-server';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run-cli.js';
import { SCORE_COLUMNS } from '../src/run-comparison/index.js';
import { ExitCode } from '../src/exit/exit-code.js';
import { captureIo } from './support/capture-io.js';

const T0 = Date.UTC(2026, 0, 2);
const id = (n: number) => `0193a1b2-c3d4-7e5f-8a9b-${n.toString(16).padStart(12, '0')}`;
const RUN_A = id(1);
const RUN_B = id(100);
const OTHER = id(500);
const CRASHED = id(600);

const summary = (model: string, passed: number): EvaluationSummary => ({
  evaluation: 'qa',
  model,
  rows: 3,
  trials: 1,
  completed: 3,
  errors: 0,
  scores: { exact: { kind: 'boolean', count: 3, passed, passRate: passed / 3 } },
  latencyMs: { p50: 2, p95: 3 },
});

/** A run call and one row call per entry of `exact` (row i scored exact = exact[i], cost = costs[i]). */
function run(runId: number, model: string, exact: boolean[], costs: number[]): CallItem[] {
  const rows: CallItem[] = exact.map((value, i) => {
    const result: EvaluationRowResult = {
      rowIndex: i,
      trial: 0,
      output: `answer ${i}`,
      scores: { exact: value, cost: costs[i]! },
      latencyMs: 2,
    };
    return {
      type: 'complete',
      id: id(runId + 1 + i),
      traceId: id(runId),
      parentId: id(runId),
      opName: PREDICT_AND_SCORE_OP,
      startedAt: T0 + runId + i,
      endedAt: T0 + runId + i + 2,
      inputs: { rowIndex: i },
      output: result,
    };
  });
  const passed = exact.filter(Boolean).length;
  return [
    {
      type: 'complete',
      id: id(runId),
      traceId: id(runId),
      parentId: null,
      opName: EVALUATE_OP,
      startedAt: T0 + runId,
      endedAt: T0 + runId + 10,
      inputs: {},
      output: summary(model, passed),
    },
    ...rows,
  ];
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ register: false });
  const items: CallItem[] = [
    ...run(1, 'model-a', [true, false, false], [3, 3, 3]),
    ...run(100, 'model-b', [true, true, false], [1, 2, 3]),
    // A run whose process died before its summary: closed as an error by the run that resumed it.
    {
      type: 'complete',
      id: CRASHED,
      traceId: CRASHED,
      parentId: null,
      opName: EVALUATE_OP,
      startedAt: T0 + 600,
      endedAt: T0 + 700,
      inputs: { evaluation: 'qa', model: { name: 'model-c', temperature: 0 }, dataset: 'qa', config: {} },
      exception: { name: 'Error', message: 'interrupted' },
      summary: { latencyMs: 100, status: 'error' },
    },
    {
      type: 'complete',
      id: OTHER,
      traceId: OTHER,
      parentId: null,
      opName: 'answer',
      startedAt: T0,
      endedAt: T0 + 1,
      inputs: {},
    },
  ];
  const res = await request(`${server.url}${routes.callBatch()}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ project: 'evals', items }),
  });
  expect(res.statusCode).toBe(200);
  await res.body.dump();
});
afterAll(async () => {
  await server?.close();
});

async function weft(argv: string[], env: Record<string, string> = { WEFT_PROJECT: 'evals' }) {
  const io = captureIo({ WEFT_URL: server.url, ...env });
  const code = await runCli(argv, io);
  return { code, out: io.out(), err: io.err() };
}

/** Lines of the score table: from its header to the blank line after it, split on runs of 2+ spaces. */
function scoreTable(out: string): string[][] {
  const lines = out.split('\n');
  const start = lines.findIndex((line) => line.startsWith('score'));
  const end = lines.indexOf('', start);
  return lines.slice(start, end).map((line) => line.split(/ {2,}/));
}

describe('weft eval compare against a real server', () => {
  it('prints both runs and, per score, the paired difference and how many rows moved', async () => {
    const { code, out, err } = await weft(['eval', 'compare', RUN_A, RUN_B, '--lower-is-better', 'cost']);
    expect(err).toBe('');
    expect(code).toBe(ExitCode.ok);
    expect(out).toMatch(/^model\s+model-a\s+model-b$/m);
    expect(out).toMatch(new RegExp(`^run\\s+${RUN_A}\\s+${RUN_B}$`, 'm'));
    const [head, ...rows] = scoreTable(out);
    expect(head).toEqual(SCORE_COLUMNS);
    const byScore = Object.fromEntries(rows.map((r) => [r[0], r]));
    // cost: 3,3,3 → 1,2,3; lower is better, so two rows got better.
    expect(byScore.cost).toEqual(expect.arrayContaining(['3', '3.000', '2.000', '−1.000']));
    expect(byScore.cost!.slice(-3)).toEqual(['2', '0', '1']);
    // exact: row 1 went false → true.
    expect(byScore.exact).toEqual(expect.arrayContaining(['3', '0.333', '0.667', '+0.333']));
    expect(byScore.exact!.slice(-3)).toEqual(['1', '0', '2']);
    expect(out).toContain('3 row(s) in both runs, paired by position; 0 only in A, 0 only in B; 2 changed.');
  });

  it('prints the changed rows as the library’s formatComparison lists them', async () => {
    const { out } = await weft(['eval', 'compare', RUN_A, RUN_B, '--lower-is-better', 'cost']);
    const changed = out.slice(out.indexOf('\nrow'));
    expect(
      changed
        .split('\n')
        .slice(1, 4)
        .map((line) => line.split(/ {2,}/)),
    ).toEqual([
      ['row', 'trial', 'changes'],
      ['0', '0', 'cost: 3 → 1'],
      ['1', '0', 'cost: 3 → 2, exact: false → true'],
    ]);
  });

  it('needs no --project: run ids are unique, each run is found where it is', async () => {
    const { code, out, err } = await weft(['eval', 'compare', RUN_A, RUN_B], {});
    expect(err).toBe('');
    expect(code).toBe(ExitCode.ok);
    expect(out).toMatch(/^model\s+model-a\s+model-b$/m);
  });

  it('names a crashed run’s evaluation and model from its inputs', async () => {
    const { code, out } = await weft(['eval', 'compare', CRASHED, RUN_B], {});
    expect(code).toBe(ExitCode.ok);
    expect(out).toMatch(/^evaluation\s+qa\s+qa$/m);
    expect(out).toMatch(/^model\s+model-c\s+model-b$/m);
    expect(out).toMatch(/^status\s+error \(no summary: interrupted or failed\)\s+success$/m);
  });

  it('prints the comparison as JSON with --json', async () => {
    const { code, out } = await weft(['eval', 'compare', RUN_A, RUN_B, '--json']);
    expect(code).toBe(ExitCode.ok);
    const parsed = JSON.parse(out);
    expect(parsed.a).toMatchObject({ id: RUN_A, summary: { model: 'model-a' } });
    expect(parsed.b).toMatchObject({ id: RUN_B, summary: { model: 'model-b' } });
    const exact = parsed.comparison.scores.find((s: { score: string }) => s.score === 'exact');
    expect(exact).toMatchObject({ pairs: 3, improved: 1, regressed: 0, unchanged: 2 });
    expect(exact.meanDifference).toBeCloseTo(1 / 3, 10);
  });

  it.each([
    ['an id with no call', id(999)],
    ['a call that is not an evaluation run', OTHER],
  ])('exits 4 for %s, naming the id', async (_what, missing) => {
    const { code, out, err } = await weft(['eval', 'compare', RUN_A, missing]);
    expect(code).toBe(ExitCode.notFound);
    expect(out).toBe('');
    expect(err).toMatch(new RegExp(`^weft: error: No evaluation run ${missing} in project evals: .*\\n$`));
  });
});
