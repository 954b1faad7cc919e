import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { type ChildRun, runChild } from '../support/index.js';
import { BURST_CALLS, type Fault } from './fault-table.js';
import { type FaultRow, recordFaultRow } from './fault-report.js';
import { type FaultOutcome, slug, startFaultEnv, tempDir } from './run-fault.js';
import { checkServer } from './server-check.js';

const childScript = fileURLToPath(new URL('./fixtures/sdk-burst-child.ts', import.meta.url));
const ROUND = 1_000;
/** Rounds the first child flushes through the healthy server, then under 503 (into the outbox), before it is killed. */
const HEALTHY_ROUNDS = 4;
const KILL_AFTER_ROUNDS = 10;

interface Round {
  from: number;
  sent: number;
  spilled: number;
  failed: number;
  pending: number;
  userErrors: number;
  ids: string[];
}

/** `child.waitForLine`, with the child's exit and last output in the error when it exits first. */
async function waitForLine(child: ChildRun, pattern: string | RegExp): Promise<string> {
  try {
    return await child.waitForLine(pattern);
  } catch (error) {
    const exit = await child.exited;
    const tail = child
      .stdout()
      .split('\n')
      .slice(-3)
      .map((line) => line.slice(0, 120));
    throw new Error(
      `${String(error)}\nexit: ${JSON.stringify(exit)}; last stdout lines: ${JSON.stringify(tail)}`,
    );
  }
}

function roundsOf(child: ChildRun): Round[] {
  // Only complete lines: a line the kill cut short (no newline yet) was never a claim.
  return child
    .stdout()
    .split('\n')
    .slice(0, -1)
    .filter((line) => line.startsWith('round '))
    .map((line) => {
      const [, from, sent, spilled, failed, pending, userErrors, ids] = line.split(' ');
      return {
        from: Number(from),
        sent: Number(sent),
        spilled: Number(spilled),
        failed: Number(failed),
        pending: Number(pending),
        userErrors: Number(userErrors),
        ids: ids ? ids.split(',') : [],
      };
    });
}

/**
 * The SDK-kill fault. A first child traces the burst in rounds of 1,000
 * calls, flushing after each: 4 rounds reach the server, then ingest answers
 * 503 so the next rounds go to its outbox; after its 10th round line it is
 * SIGKILLed (in the middle of round 11: tracing, appending). What it may
 * claim is exactly the rounds it printed: flush() resolved for them, so each
 * of their calls was acknowledged or durably appended. A second child on the
 * same outbox folder opens it (the killed owner's lock is stale), replays it,
 * traces the rest of the 20,000 calls, and flushes (which delivers the
 * outbox too). Expected on the server: every claimed call of both children, once.
 */
export async function runSdkKillFault(fault: Fault): Promise<FaultOutcome> {
  const { server, proxy } = await startFaultEnv();
  const project = slug(fault);
  const outboxDir = await tempDir('weft-faults-sdk-kill-');
  const env = { PROJECT: project, WEFT_URL: proxy.url, OUTBOX_DIR: outboxDir, ROUND: String(ROUND) };
  const started = performance.now();

  // Its rounds under 503 wait for the server until their flush's deadline: a short one.
  const first = await runChild(childScript, {
    env: { ...env, FROM: '0', CALLS: String(BURST_CALLS), FLUSH_TIMEOUT_MS: '2000' },
  });
  await waitForLine(first, `round ${(HEALTHY_ROUNDS - 1) * ROUND} `);
  proxy.respond(503);
  await waitForLine(first, `round ${(KILL_AFTER_ROUNDS - 1) * ROUND} `);
  first.kill('SIGKILL');
  const exit = await first.exited;
  proxy.passThrough();
  const claimed = roundsOf(first);
  const resumeFrom = claimed.length * ROUND;

  const second = await runChild(childScript, {
    env: { ...env, FROM: String(resumeFrom), CALLS: String(BURST_CALLS - resumeFrom), DRAIN: '1' },
  });
  const drained = await waitForLine(second, /^drained /);
  await second.exited;
  const resumed = roundsOf(second);

  const rounds = [...claimed, ...resumed];
  const ids = rounds.flatMap((round) => round.ids);
  const check = await checkServer(server.url, project, ids);
  const timeMs = performance.now() - started;
  const sum = (key: 'sent' | 'spilled' | 'failed' | 'pending', of: Round[]) =>
    of.reduce((n, r) => n + r[key], 0);
  const userErrors = rounds.reduce((n, r) => n + r.userErrors, 0);
  const outboxLeft = Number(drained.split(' ')[1]);
  const notes = [
    `1st child (${exit.signal ?? exit.code}) claimed ${claimed.length} rounds: ${sum('sent', claimed)} sent, ${sum('spilled', claimed)} spilled, ${sum('failed', claimed)} failed`,
    `2nd child: ${sum('sent', resumed)} sent, ${sum('spilled', resumed)} spilled, ${sum('failed', resumed)} failed`,
    `${check.unexpected} unclaimed calls of the killed round on the server too`,
    outboxLeft ? `${outboxLeft} stuck in outbox` : '',
    check.missing.length ? `**${check.missing.length} not on server**` : '',
  ]
    .filter(Boolean)
    .join('; ');
  const row: FaultRow = {
    order: fault.order,
    fault: fault.name,
    calls: ids.length,
    onServer: check.onServer,
    duplicates: check.duplicates.length,
    userErrors,
    timeMs,
    notes,
  };
  await recordFaultRow(row);
  return { fault, calls: ids.length, check, userErrors, pending: sum('pending', rounds), outboxLeft, row };
}
