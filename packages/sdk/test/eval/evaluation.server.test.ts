import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type Call,
  EVALUATE_OP,
  type EvaluationRowResult,
  evaluationRowResult,
  evaluationSummary,
  PREDICT_AND_SCORE_OP,
} from '@weft/protocol';
import { startTestServer, type TestServer } from '@weft/test-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { init } from '../../src/client/init.js';
import type { WeftClient } from '../../src/client/weft-client.js';
import { Dataset } from '../../src/datasets/index.js';
import { compareRuns } from '../../src/eval/compare.js';
import { Evaluation } from '../../src/eval/evaluation.js';
import { formatComparison } from '../../src/eval/format-comparison.js';
import { loadRun } from '../../src/eval/load-run.js';
import { Model } from '../../src/eval/model.js';
import { exactMatch } from '../../src/eval/scorers.js';
import { resetWeft } from '../../src/testing/index.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ register: false });
});
afterAll(async () => {
  await resetWeft();
  await server.close();
});
afterEach(async () => {
  await resetWeft({ timeoutMs: 5_000 });
});

async function allCalls(client: WeftClient, options: Parameters<WeftClient['getCalls']>[0]): Promise<Call[]> {
  const out: Call[] = [];
  for await (const call of client.getCalls({ pageSize: 1_000, ...options })) out.push(call);
  return out;
}

/** Answers 2q, except for every 7th question. Reports token usage like an OpenAI response. */
class Doubler extends Model {
  temperature = 0;
  async predict(row: Record<string, unknown>) {
    const q = row.q as number;
    await new Promise((r) => setImmediate(r));
    return {
      answer: String(q % 7 === 0 ? -1 : 2 * q),
      model: 'fake-1',
      usage: { prompt_tokens: 2, completion_tokens: 1 },
    };
  }
}

describe('Evaluation against the real server', () => {
  it('runs 1,000 rows at concurrency 16: every row call under the run, the summary exact', async () => {
    const client = init({ project: 'eval-1k', url: server.url, outbox: false });
    const dataset = new Dataset({
      name: 'doubling',
      rows: Array.from({ length: 1_000 }, (_, q) => ({ q, expected: String(2 * q) })),
    });
    const ev = new Evaluation({
      name: 'doubling-eval',
      dataset,
      scorers: {
        exact: ({ output, row }) =>
          exactMatch()({ output: (output as { answer: string }).answer, row }) as boolean,
        bucket: ({ row }) => (row.q as number) % 4,
        parts: ({ row }) => ({
          even: (row.q as number) % 2 === 0,
          tens: Math.floor(((row.q as number) % 100) / 10),
        }),
      },
    });
    const summary = await ev.evaluate(new Doubler(), { concurrency: 16, progress: false, print: false });

    // Hand-computed: q % 7 === 0 for q = 0, 7, …, 994 → 143 wrong, 857 right.
    // bucket: 0,1,2,3 × 250 → mean 1.5, sample variance 250·(2.25+0.25+0.25+2.25)/999 = 1250/999.
    // parts.even: 500 of 1,000. parts.tens: 0…9 × 100 → mean 4.5, sample var 100·Σ(k−4.5)²/999 = 100·82.5/999.
    expect(summary).toEqual({
      evaluation: 'doubling-eval',
      model: 'Doubler',
      rows: 1_000,
      trials: 1,
      completed: 1_000,
      errors: 0,
      scores: {
        bucket: {
          kind: 'number',
          count: 1_000,
          mean: 1.5,
          stddev: expect.closeTo(Math.sqrt(1250 / 999), 12),
        },
        exact: { kind: 'boolean', count: 1_000, passed: 857, passRate: 0.857 },
        parts: {
          kind: 'object',
          keys: {
            even: { kind: 'boolean', count: 1_000, passed: 500, passRate: 0.5 },
            tens: {
              kind: 'number',
              count: 1_000,
              mean: 4.5,
              stddev: expect.closeTo(Math.sqrt(8250 / 999), 12),
            },
          },
        },
      },
      latencyMs: { p50: expect.any(Number), p95: expect.any(Number) },
      usage: { 'fake-1': { requests: 1_000, inputTokens: 2_000, outputTokens: 1_000, totalTokens: 3_000 } },
    });
    expect(summary.latencyMs.p95).toBeGreaterThanOrEqual(summary.latencyMs.p50);

    const flushed = await client.flush();
    expect(flushed.failed).toBe(0);
    const runs = await allCalls(client, { opName: EVALUATE_OP });
    expect(runs).toHaveLength(1);
    const run = runs[0] as Call;
    expect(run.id).toBe(ev.lastRun?.callId);
    expect(run.status).toBe('success');
    expect(evaluationSummary.parse(run.output)).toEqual(summary);
    expect(run.summary?.usage?.['fake-1']?.totalTokens).toBe(3_000);
    expect(String(run.inputs.dataset)).toMatch(/^weft:\/\/\/eval-1k\/object\/doubling:/);
    expect(String(run.inputs.model)).toMatch(/^weft:\/\/\/eval-1k\/object\/Doubler:/);

    const rowCalls = await allCalls(client, { parentId: run.id });
    expect(rowCalls).toHaveLength(1_000);
    expect(rowCalls.every((c) => c.opName === PREDICT_AND_SCORE_OP && c.traceId === run.id)).toBe(true);
    const outputs = rowCalls.map((c) => evaluationRowResult.parse(c.output));
    expect(outputs.map((r) => r.rowIndex).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 1_000 }, (_, i) => i),
    );
    const digests = await dataset.rowDigests();
    expect(outputs.every((r) => r.rowDigest === digests[r.rowIndex])).toBe(true);
    expect(outputs.filter((r) => r.scores.exact === false)).toHaveLength(143);

    // Each row's own tree: one Doubler.predict call under it.
    const predicts = await allCalls(client, { opName: 'Doubler.predict', traceId: run.id });
    expect(predicts).toHaveLength(1_000);
    const rowIds = new Set(rowCalls.map((c) => c.id));
    expect(new Set(predicts.map((c) => c.parentId))).toEqual(rowIds);
  });

  it('records a throwing model and a throwing scorer per row, checkpoints a BigInt output in its safe form, and completes', async () => {
    const client = init({ project: 'eval-failures', url: server.url, outbox: false });
    const checkpoint = join(server.dir, 'failures.jsonl');
    const rows = Array.from({ length: 100 }, (_, i) => ({ i, expected: String(i) }));
    const model = async function flaky(row: Record<string, unknown>) {
      const i = row.i as number;
      if (i % 10 === 3) throw new Error(`model failed on ${i}`);
      // JSON cannot encode a BigInt: the checkpoint writes its safe form, as the call records it (regression: it was a row error).
      if (i === 42) return { text: String(i), big: 10n };
      return String(i);
    };
    const ev = new Evaluation({
      name: 'failures',
      dataset: rows,
      scorers: [
        exactMatch(),
        function picky({ row }) {
          if ((row.i as number) % 10 === 5) throw new TypeError('scorer cannot score this');
          return 1;
        },
      ],
    });
    const summary = await ev.evaluate(model, { concurrency: 8, checkpoint, progress: false, print: false });
    // 10 model failures + 10 scorer failures; the BigInt row is not an error.
    expect(summary.completed).toBe(100);
    expect(summary.errors).toBe(20);
    // Model failures have no scores; scorer failures keep the scores that succeeded.
    expect(summary.scores.exactMatch).toMatchObject({ kind: 'boolean', count: 90, passed: 89 });
    expect(summary.scores.picky).toMatchObject({ kind: 'number', count: 80, mean: 1 });
    expect(ev.lastRun?.checkpointFailures).toBe(0);

    const lines = (await readFile(checkpoint, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as EvaluationRowResult)
      .filter((l) => !('run' in l));
    expect(lines).toHaveLength(100);
    const byRow = new Map(lines.map((r) => [r.rowIndex, r]));
    expect(byRow.get(42)?.output).toEqual({ text: '42', big: { _weft: 'bigint', value: '10' } });
    expect(byRow.get(42)?.error).toBeUndefined();
    expect(byRow.get(13)?.error).toMatchObject({ name: 'Error', message: 'model failed on 13' });
    expect(byRow.get(13)?.scores).toEqual({});
    expect(byRow.get(15)?.error).toMatchObject({ name: 'ScorerFailedError', cause: { name: 'TypeError' } });
    expect(byRow.get(15)?.scores).toEqual({ exactMatch: true });

    await client.flush();
    const [run] = await allCalls(client, { opName: EVALUATE_OP });
    const rowCalls = await allCalls(client, { parentId: run?.id ?? '' });
    expect(rowCalls).toHaveLength(100);
    const recorded = new Map(
      rowCalls.map((c) => [
        evaluationRowResult.parse(c.output).rowIndex,
        evaluationRowResult.parse(c.output),
      ]),
    );
    expect(recorded.get(23)?.error?.message).toBe('model failed on 23');
    expect(recorded.get(42)?.error).toBeUndefined();
    expect(recorded.get(42)?.output).toEqual(byRow.get(42)?.output);
    expect(recorded.get(42)?.scores).toEqual({ exactMatch: false, picky: 1 });
    expect([...recorded.values()].filter((r) => r.error !== undefined)).toHaveLength(20);
  });

  it('reads two runs back by id and compares them row by row', async () => {
    const client = init({ project: 'eval-compare', url: server.url, outbox: false });
    const rows = Array.from({ length: 30 }, (_, i) => ({ i, expected: String(i) }));
    const ev = new Evaluation({ name: 'cmp', dataset: rows, scorers: [exactMatch()] });
    // Baseline is wrong on multiples of 3; the candidate fixes those but breaks multiples of 10.
    await ev.evaluate(
      async function baseline(row: Record<string, unknown>) {
        return (row.i as number) % 3 === 0 ? 'x' : String(row.i);
      },
      { progress: false, print: false },
    );
    const runA = ev.lastRun?.callId as string;
    await ev.evaluate(
      async function candidate(row: Record<string, unknown>) {
        return (row.i as number) % 10 === 0 ? 'x' : String(row.i);
      },
      { progress: false, print: false },
    );
    const runB = ev.lastRun?.callId as string;
    await client.flush();

    const a = await loadRun(client, runA);
    const b = await loadRun({ url: server.url, project: 'eval-compare' }, runB);
    expect(a.results).toHaveLength(30);
    expect(b.skipped).toEqual([]);
    expect(a.summary?.model).toBe('baseline');
    const cmp = compareRuns(a.results, b.results);
    // Multiples of 3 in 0…29: 10; of 10: 3; both (0): 1. Improved 9 (3,6,9,12,15,18,21,24,27), regressed 2 (10, 20).
    expect(cmp).toMatchObject({ pairedBy: 'rowDigest', shared: 30, onlyInA: 0, onlyInB: 0 });
    expect(cmp.scores[0]).toMatchObject({ score: 'exactMatch', improved: 9, regressed: 2, unchanged: 19 });
    expect(cmp.changed.map((c) => c.rowIndexA)).toEqual([3, 6, 9, 10, 12, 15, 18, 20, 21, 24, 27]);
    const text = formatComparison(cmp, {
      summaries: { a: a.summary!, b: b.summary! },
      labels: ['baseline', 'candidate'],
    });
    expect(text).toMatch(/│ model\s+│ baseline\s+│ candidate\s+│/);

    const [someRow] = await allCalls(client, { parentId: runA, limit: 1 });
    await expect(loadRun(client, someRow?.id ?? '')).rejects.toMatchObject({ code: 'WEFT_RUN_NOT_FOUND' });
  });

  it('publishes a Model as a versioned object: same settings, same version; a changed setting, a new one', async () => {
    const client = init({ project: 'eval-models', url: server.url, outbox: false });
    const ev = new Evaluation({ name: 'versions', dataset: [{ q: 1, expected: '2' }], scorers: [] });
    const quiet = { progress: false, print: false } as const;
    const first = new Doubler();
    await ev.evaluate(first, quiet);
    const runA = ev.lastRun?.callId;
    await ev.evaluate(new Doubler(), quiet);
    const runB = ev.lastRun?.callId;
    const hot = new Doubler();
    hot.temperature = 0.7;
    await ev.evaluate(hot, quiet);
    const runC = ev.lastRun?.callId;
    await client.flush();
    const modelOf = async (id: string | undefined) => String((await client.getCall(id ?? ''))?.inputs.model);
    const [a, b, c] = [await modelOf(runA), await modelOf(runB), await modelOf(runC)];
    expect(a).toMatch(/^weft:\/\/\/eval-models\/object\/Doubler:/);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    expect(await client.get(a)).toEqual({ temperature: 0 });
    expect(await client.get(c)).toEqual({ temperature: 0.7 });
    // The predict call under each row records the model version it ran with.
    const [row] = await allCalls(client, { parentId: runC ?? '' });
    const [predict] = await allCalls(client, { parentId: row?.id ?? '' });
    expect(predict?.opName).toBe('Doubler.predict');
    expect(predict?.inputs.self).toBe(c);
  });
});
