import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Call,
  EVALUATE_OP,
  type EvaluationRowResult,
  type EvaluationSummary,
  PREDICT_AND_SCORE_OP,
} from '@weft/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '../../src/client/init.js';
import type { WeftClient } from '../../src/client/weft-client.js';
import { compareRuns } from '../../src/eval/compare.js';
import { formatComparison } from '../../src/eval/format-comparison.js';
import { loadRun } from '../../src/eval/load-run.js';
import { RESUMED_FROM_ATTRIBUTE } from '../../src/eval/resume-run.js';
import { startTestServer, type TestServer } from '@weft/test-server';
import { runChild } from '../support/index.js';
import { CRASH_ROWS, crashEvaluation, crashModel } from './fixtures/crash-evaluation.js';

const childScript = fileURLToPath(new URL('./fixtures/crash-child.ts', import.meta.url));

let dir: string;
let server: TestServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weft-eval-crash-'));
  server = await startTestServer({ register: afterAll });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const PROJECT = 'eval-crash';

async function children(client: WeftClient, parentId: string): Promise<Call[]> {
  const out: Call[] = [];
  for await (const call of client.getCalls({ parentId, opName: PREDICT_AND_SCORE_OP, pageSize: 1_000 }))
    out.push(call);
  return out;
}

const readLines = async (path: string) =>
  (await readFile(path, 'utf8').catch(() => '')).split('\n').filter((l) => l !== '');
const withoutLatency = ({ latencyMs: _latency, ...rest }: EvaluationSummary) => rest;

it('resumes a SIGKILLed run: exactly the missing rows run, the server holds every row once, and the crashed run ends', async ({
  annotate,
}) => {
  const checkpoint = join(dir, 'run.jsonl');
  const log1 = join(dir, 'invocations-1.log');
  const log2 = join(dir, 'invocations-2.log');
  const env = { WEFT_URL: server.url, OUTBOX_DIR: join(dir, 'outbox') };

  const first = await runChild(childScript, { args: [checkpoint, log1, '0'], env });
  await first.waitForLine('HALFWAY');
  first.kill('SIGKILL');
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

  const text = await readFile(checkpoint, 'utf8');
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  const finished = new Set(
    complete
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('{"run"'))
      .map((l) => (JSON.parse(l) as EvaluationRowResult).rowIndex),
  );
  const crashedRunId = (
    JSON.parse(complete.slice(0, complete.indexOf('\n'))) as { run: string; callId: string }
  ).callId;
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

  const second = await runChild(childScript, { args: [checkpoint, log2, '1'], env });
  const line = await second.waitForLine(/^SUMMARY /);
  expect(await second.exited).toEqual({ code: 0, signal: null });
  const { summary, run } = JSON.parse(line.slice('SUMMARY '.length)) as {
    summary: EvaluationSummary;
    run: {
      callId: string;
      resumed: number;
      ran: number;
      checkpointRepair: { tornBytes: number; corruptLines: number[] };
    };
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
  const lines = (await readLines(checkpoint)).map((l) => JSON.parse(l) as Record<string, unknown>);
  const final = lines.filter((l) => !('run' in l)) as unknown as EvaluationRowResult[];
  expect(final).toHaveLength(CRASH_ROWS);
  expect(new Set(final.map((r) => r.rowIndex)).size).toBe(CRASH_ROWS);
  // Run markers: the crashed run started and never ended by itself; the resume closed it, then ran and ended.
  expect(lines.filter((l) => 'run' in l)).toEqual([
    expect.objectContaining({ run: 'start', callId: crashedRunId }),
    expect.objectContaining({ run: 'start', callId: run.callId }),
    { run: 'end', callId: crashedRunId },
    { run: 'end', callId: run.callId },
  ]);

  const client = createClient({ project: PROJECT, url: server.url, outbox: false, handleExit: false });
  try {
    const uninterrupted = await crashEvaluation().evaluate(
      crashModel(0, () => {}),
      {
        concurrency: 8,
        progress: false,
        print: false,
        client,
      },
    );
    await client.flush();
    const uninterruptedId = await latestRun(client, run.callId, crashedRunId);
    expect(withoutLatency(summary)).toEqual(withoutLatency(uninterrupted));
    expect(summary.completed).toBe(CRASH_ROWS);
    expect(summary.scores.exactMatch).toMatchObject({ count: CRASH_ROWS, passed: CRASH_ROWS - 56 });

    // The server's record of the resumed run: every row exactly once, and the summary the child printed.
    const resumedRun = await loadRun(client, run.callId);
    expect(resumedRun.skipped).toEqual([]);
    expect(resumedRun.results.map((r) => r.rowIndex)).toEqual(
      Array.from({ length: CRASH_ROWS }, (_, i) => i),
    );
    expect(resumedRun.summary).toEqual(summary);
    expect(resumedRun.run.status).toBe('success');
    // Rows finished before the crash were re-sent from the checkpoint, naming the call that first recorded them.
    const resumedRows = await children(client, run.callId);
    const resent = resumedRows.filter((c) => c.attributes[RESUMED_FROM_ATTRIBUTE] !== undefined);
    expect(resent).toHaveLength(finished.size);
    expect(new Set(resent.map((c) => (c.inputs as { rowIndex: number }).rowIndex))).toEqual(finished);
    for (const c of resent) expect(c.attributes[RESUMED_FROM_ATTRIBUTE]).toMatchObject({ run: crashedRunId });

    // `weft eval compare` (loadRun + compareRuns): no phantom rows against an uninterrupted run.
    const comparison = compareRuns((await loadRun(client, uninterruptedId)).results, resumedRun.results);
    expect(comparison).toMatchObject({ shared: CRASH_ROWS, onlyInA: 0, onlyInB: 0, changed: [] });
    expect(formatComparison(comparison)).toContain(
      '500 shared rows (paired by rowDigest); only in A: 0, only in B: 0',
    );
    expect(formatComparison(comparison)).toContain('no row changed');

    // The crashed run ended with status error and a reason naming the run that resumed it;
    // the rows it recorded before dying are still listed under it, none left running.
    const crashed = await client.getCall(crashedRunId);
    expect(crashed?.opName).toBe(EVALUATE_OP);
    expect(crashed?.status).toBe('error');
    expect(crashed?.endedAt).not.toBeNull();
    expect(crashed?.exception?.message).toContain(run.callId);
    const orphans = await children(client, crashedRunId);
    expect(orphans.filter((c) => c.status === 'success').length).toBeGreaterThanOrEqual(100);
    expect(orphans.filter((c) => c.status === 'running')).toEqual([]);
    // Each row delivered before the crash is found from its re-sent copy (rows in flight at the kill were never delivered).
    const orphanIds = new Set(orphans.map((o) => o.id));
    const linked = resent.filter((c) =>
      orphanIds.has((c.attributes[RESUMED_FROM_ATTRIBUTE] as { call: string }).call),
    );
    expect(linked.length).toBeGreaterThanOrEqual(100);
  } finally {
    await client.shutdown();
  }
});

/** The id of the one evaluation run on the server other than the two named. */
async function latestRun(client: WeftClient, ...not: string[]): Promise<string> {
  const runs: Call[] = [];
  for await (const call of client.getCalls({ opName: EVALUATE_OP }))
    if (!not.includes(call.id)) runs.push(call);
  expect(runs).toHaveLength(1);
  return (runs[0] as Call).id;
}
