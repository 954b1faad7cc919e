import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EvaluationRowResult, EvaluationSummary } from '@weft/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runChild } from '../harness/index.js';
import { CRASH_ROWS, crashEvaluation, crashModel } from './fixtures/crash-evaluation.js';

const childScript = fileURLToPath(new URL('./fixtures/crash-child.ts', import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weft-eval-crash-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const readLines = async (path: string) =>
  (await readFile(path, 'utf8').catch(() => '')).split('\n').filter((l) => l !== '');
const withoutLatency = ({ latencyMs: _latency, ...rest }: EvaluationSummary) => rest;

it('resumes a SIGKILLed run: exactly the missing rows run, and the summary equals an uninterrupted run', async ({
  annotate,
}) => {
  const checkpoint = join(dir, 'run.jsonl');
  const log1 = join(dir, 'invocations-1.log');
  const log2 = join(dir, 'invocations-2.log');

  const first = await runChild(childScript, { args: [checkpoint, log1, '0'] });
  await first.waitForLine('HALFWAY');
  first.kill('SIGKILL');
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

  const text = await readFile(checkpoint, 'utf8');
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  const finished = new Set(
    complete
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as EvaluationRowResult).rowIndex),
  );
  expect(finished.size).toBeGreaterThanOrEqual(100);
  expect(finished.size).toBeLessThan(CRASH_ROWS);
  // Each row is one write(2), so SIGKILL rarely tears a line; when it did not, tear one as a crash mid-write would.
  const tornByKill = !text.endsWith('\n');
  if (!tornByKill) await appendFile(checkpoint, '{"rowIndex":499,"trial":0,"out');
  await annotate(
    tornByKill
      ? 'the SIGKILL tore the last line'
      : 'the SIGKILL left whole lines; the test appended a torn one',
  );

  const second = await runChild(childScript, { args: [checkpoint, log2, '1'] });
  const line = await second.waitForLine(/^SUMMARY /);
  expect(await second.exited).toEqual({ code: 0, signal: null });
  const { summary, run } = JSON.parse(line.slice('SUMMARY '.length)) as {
    summary: EvaluationSummary;
    run: { resumed: number; ran: number; checkpointRepair: { tornBytes: number; corruptLines: number[] } };
  };
  expect(run.checkpointRepair.tornBytes).toBeGreaterThan(0);
  expect(run.checkpointRepair.corruptLines).toEqual([]);
  expect(run.resumed).toBe(finished.size);
  expect(run.ran).toBe(CRASH_ROWS - finished.size);

  // No row recorded in the checkpoint before the crash ran again; every other row ran exactly once.
  const secondInvocations = (await readLines(log2)).map(Number);
  expect(secondInvocations.filter((i) => finished.has(i))).toEqual([]);
  expect([...secondInvocations].sort((a, b) => a - b)).toEqual(
    Array.from({ length: CRASH_ROWS }, (_, i) => i).filter((i) => !finished.has(i)),
  );
  // Every row exactly once in the final checkpoint: none twice, none missed.
  const final = (await readLines(checkpoint)).map((l) => JSON.parse(l) as EvaluationRowResult);
  expect(final).toHaveLength(CRASH_ROWS);
  expect(new Set(final.map((r) => r.rowIndex)).size).toBe(CRASH_ROWS);

  const uninterrupted = await crashEvaluation().evaluate(
    crashModel(0, () => {}),
    { concurrency: 8, progress: false, print: false },
  );
  expect(withoutLatency(summary)).toEqual(withoutLatency(uninterrupted));
  expect(summary.completed).toBe(CRASH_ROWS);
  expect(summary.scores.exactMatch).toMatchObject({ count: CRASH_ROWS, passed: CRASH_ROWS - 56 });
});
