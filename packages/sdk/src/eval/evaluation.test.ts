import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { EvaluationRowResult } from '@weft/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Dataset } from '../datasets/index.js';
import { Evaluation } from './evaluation.js';
import { exactMatch } from './scorers.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weft-eval-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ i, expected: String(i) }));
const echo = async function echoModel(row: Record<string, unknown>) {
  return String(row.i);
};
const quiet = { progress: false, print: false } as const;
const lines = async (path: string) =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as EvaluationRowResult);

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('Evaluation.evaluate', () => {
  it('cancels on abort, leaving whole lines in the checkpoint, and a resume runs only the rest', async () => {
    const checkpoint = join(dir, 'run.jsonl');
    const controller = new AbortController();
    const gate = deferred();
    const twenty = deferred();
    let recorded = 0;
    const invoked: number[] = [];
    // Rows from 20 on wait on a gate that only opens after the abort.
    const model = async function gated(row: Record<string, unknown>, { signal }: { signal: AbortSignal }) {
      invoked.push(row.i as number);
      if ((row.i as number) >= 20) {
        await gate.promise;
        signal.throwIfAborted();
      }
      return String(row.i);
    };
    const ev = new Evaluation({ name: 'abort', dataset: rows(200), scorers: [exactMatch()] });
    const run = ev.evaluate(model, {
      ...quiet,
      concurrency: 4,
      checkpoint,
      signal: controller.signal,
      onResult: () => {
        if (++recorded === 20) twenty.resolve();
      },
    });
    await twenty.promise;
    controller.abort(new Error('user cancelled'));
    gate.resolve();
    await expect(run).rejects.toThrow('user cancelled');
    // Rows in flight at the abort were abandoned, queued rows never started.
    expect(invoked.length).toBeLessThan(30);
    const first = await lines(checkpoint);
    expect(first.map((r) => r.rowIndex).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    );

    const again: number[] = [];
    const summary = await ev.evaluate(
      async function counted(row: Record<string, unknown>) {
        again.push(row.i as number);
        return String(row.i);
      },
      { ...quiet, concurrency: 4, checkpoint, resume: true },
    );
    expect(again.sort((a, b) => a - b)).toEqual(Array.from({ length: 180 }, (_, i) => i + 20));
    expect(summary).toMatchObject({ completed: 200, errors: 0, scores: { exactMatch: { passed: 200 } } });
    expect(ev.lastRun).toMatchObject({ resumed: 20, ran: 180 });
    expect(await lines(checkpoint)).toHaveLength(200);
  });

  it('retries rate-limited rows without counting them as failures, until the budget is spent', async () => {
    const attempts = new Map<number, number>();
    const model = async function limited(row: Record<string, unknown>) {
      const i = row.i as number;
      const n = (attempts.get(i) ?? 0) + 1;
      attempts.set(i, n);
      // Every 5th row is rate limited twice; row 7 always.
      if ((i % 5 === 0 && n <= 2) || i === 7) {
        throw Object.assign(new Error('429 Too Many Requests'), { status: 429, retryAfterMs: 2 });
      }
      return String(i);
    };
    const ev = new Evaluation({ name: 'limits', dataset: rows(40), scorers: [exactMatch()] });
    const summary = await ev.evaluate(model, { ...quiet, concurrency: 8, rateLimit: { maxAttempts: 4 } });
    expect(summary.errors).toBe(1);
    expect(summary.scores.exactMatch).toMatchObject({ count: 39, passed: 39 });
    expect(attempts.get(0)).toBe(3);
    expect(attempts.get(7)).toBe(4);
    const failed = ev.lastRun?.results.find((r) => r.rowIndex === 7);
    expect(failed?.error).toMatchObject({ name: 'RateLimitExhaustedError' });
  });

  it('runs each row once per trial and reports the per-row variance across trials', async () => {
    const checkpoint = join(dir, 'trials.jsonl');
    // Row i, trial t scores (i + t) % 2: every row alternates 0,1,0 or 1,0,1 → variance 1/3 each.
    const seen = new Map<number, number>();
    const model = async function alternating(row: Record<string, unknown>, { trial }: { trial: number }) {
      const i = row.i as number;
      seen.set(i, (seen.get(i) ?? 0) + 1);
      return (i + trial) % 2;
    };
    const ev = new Evaluation({
      name: 'trials',
      dataset: rows(10),
      trials: 3,
      scorers: { value: ({ output }) => output as number },
    });
    const summary = await ev.evaluate(model, { ...quiet, concurrency: 3, checkpoint });
    expect(summary).toMatchObject({ rows: 10, trials: 3, completed: 30 });
    expect(summary.rowVariance?.value).toBeCloseTo(1 / 3, 12);
    expect([...seen.values()].every((n) => n === 3)).toBe(true);
    const keys = (await lines(checkpoint)).map((r) => `${r.rowIndex}:${r.trial}`);
    expect(new Set(keys).size).toBe(30);
  });

  it('reruns a checkpointed row whose content changed since the checkpoint was written', async () => {
    const checkpoint = join(dir, 'changed.jsonl');
    const ev1 = new Evaluation({ name: 'changed', dataset: rows(5), scorers: [exactMatch()] });
    await ev1.evaluate(echo, { ...quiet, checkpoint });
    const edited = rows(5);
    edited[2] = { i: 2, expected: 'two' };
    const ran: number[] = [];
    const ev2 = new Evaluation({
      name: 'changed',
      dataset: new Dataset({ name: 'edited', rows: edited }),
      scorers: [exactMatch()],
    });
    const summary = await ev2.evaluate(
      async function tracked(row: Record<string, unknown>) {
        ran.push(row.i as number);
        return String(row.i);
      },
      { ...quiet, checkpoint, resume: true },
    );
    expect(ran).toEqual([2]);
    expect(summary.scores.exactMatch).toMatchObject({ count: 5, passed: 4 });
  });

  it('starts over when the checkpoint holds only a torn line, and prints the summary when asked', async () => {
    const checkpoint = join(dir, 'torn.jsonl');
    await writeFile(checkpoint, '{"rowIndex":0,"tri');
    const out = new PassThrough();
    let printed = '';
    out.on('data', (c: Buffer) => {
      printed += c.toString();
    });
    const ev = new Evaluation({ name: 'printed', dataset: rows(3), scorers: [exactMatch()] });
    await ev.evaluate(echo, { progress: false, print: out, checkpoint, resume: true });
    expect(ev.lastRun?.checkpointRepair.tornBytes).toBe(18);
    expect(printed).toContain('Evaluation printed · model echoModel · 3 rows');
    expect(printed).toMatch(/│ exactMatch\s+│ 3\s+│ 100\.0% \(3\)/);
  });

  it('shows progress on a TTY stream', async () => {
    const tty = Object.assign(new PassThrough(), { isTTY: true, columns: 160 });
    let text = '';
    tty.on('data', (c: Buffer) => {
      text += c.toString();
    });
    await new Evaluation({ name: 'bar', dataset: rows(12), scorers: [] }).evaluate(echo, {
      print: false,
      progress: tty,
    });
    expect(text).toContain('12/12 rows');
  });

  it('rejects bad options with a typed error naming the option', async () => {
    const bad = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(
      bad(() => new Evaluation({ name: 'x', dataset: rows(1), scorers: [({ output }) => output === 1] })),
    ).toMatchObject({
      code: 'WEFT_INVALID_OPTIONS',
      path: 'scorers.0',
    });
    expect(
      bad(() => new Evaluation({ name: 'x', dataset: rows(1), scorers: [exactMatch(), exactMatch()] })),
    ).toMatchObject({
      path: 'scorers',
    });
    expect(bad(() => new Evaluation({ name: '', dataset: rows(1) }))).toMatchObject({ path: 'name' });
    expect(bad(() => new Evaluation({ name: 'x', dataset: [1] as never }))).toMatchObject({
      code: 'WEFT_INVALID_DATASET_ROWS',
    });
    const ev = new Evaluation({ name: 'x', dataset: rows(1) });
    await expect(ev.evaluate(echo, { resume: true })).rejects.toMatchObject({ path: 'resume' });
    await expect(ev.evaluate(echo, { concurrency: 0 })).rejects.toMatchObject({ path: 'concurrency' });
    await expect(ev.evaluate('model' as never)).rejects.toMatchObject({ path: 'model' });
  });

  it('checkpoints a value JSON cannot hold in its safe form instead of failing the row (BigInt, Map, NaN)', async () => {
    const checkpoint = join(dir, 'run.jsonl');
    const model = async function odd(row: Record<string, unknown>) {
      return { big: BigInt(row.i as number) * 10n ** 20n, map: new Map([['k', Number.NaN]]) };
    };
    const ev = new Evaluation({ name: 'odd', dataset: rows(3) });
    const summary = await ev.evaluate(model, { ...quiet, checkpoint });
    expect(summary.errors).toBe(0);
    expect(ev.lastRun?.checkpointFailures).toBe(0);
    const written = await lines(checkpoint);
    expect(written).toHaveLength(3);
    for (const line of written) expect(line.error).toBeUndefined();
    expect(written.find((l) => l.rowIndex === 2)?.output).toMatchObject({
      big: { _weft: 'bigint', value: '200000000000000000000' },
    });
  });
});
