import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { FlushResult } from '@weft/sdk';
import { replayOutbox } from '@weft/sdk/outbox';
import { startServerProcess } from '@weft/test-server';
import { type ChildRun, duplicateIds, listServerCalls, runChild } from '../support/index.js';
import { tempDir } from './run-fault.js';

const childScript = fileURLToPath(new URL('./fixtures/server-restart-child.ts', import.meta.url));
const CALLS = 20_000;
/** The flush deadline of the down-for-the-whole-deadline case. */
const DOWN_DEADLINE_MS = 5_000;

/** What the child prints after its flush. */
type Flushed = FlushResult & { outboxLeft: number; elapsedMs: number };

function flushedLine(child: ChildRun): Flushed {
  const line = child
    .stdout()
    .split('\n')
    .find((l) => l.startsWith('flushed '));
  if (line === undefined) throw new Error(`the child printed no flush result; stderr:\n${child.stderr()}`);
  return JSON.parse(line.slice('flushed '.length)) as Flushed;
}

/**
 * Issue 25 item 1: the server is SIGKILLed 1.5 s into a burst spread over
 * 3 s and restarted on the same port and database 2 s later; `flush` is
 * asked as soon as the server is back (`after-restart`, the issue's
 * scenario) or while it is still down (`during-outage`, so the flush itself
 * must find it back). Before the fix the flush resolved as soon as everything was on
 * disk, and delivery waited for a circuit probe whose delay had grown during
 * the outage (up to 10 s): a short process ended with the calls in its
 * outbox (17,913 of 20,000 in the first run of this test).
 */
describe('flush delivers when the server is back', () => {
  it.each(['after-restart', 'during-outage'] as const)(
    '20,000 calls, server SIGKILLed 1.5 s in and restarted 2 s later, flush asked %s: every call is on the server exactly once when flush resolves',
    async (when) => {
      const server = await startServerProcess();
      const project = `server-restart-${when}`;
      const child = await runChild(childScript, {
        ipc: true,
        env: {
          WEFT_URL: server.url,
          PROJECT: project,
          OUTBOX_DIR: await tempDir('weft-restart-outbox-'),
          CALLS: String(CALLS),
          SPREAD_TURNS: '20',
          TURN_MS: '150',
          TIMEOUT_MS: '120000',
          WAIT_FOR_FLUSH: '1',
        },
      });
      await child.waitForLine('traced ');
      // The fault's own schedule (kill 1.5 s into the burst, restart 2 s later), not a wait for an event.
      await sleep(1_500);
      await server.kill('SIGKILL');
      if (when === 'during-outage') {
        await child.waitForLine(`traced ${CALLS}`);
        child.child.send('flush');
      }
      await sleep(2_000);
      await server.start();
      if (when === 'after-restart') child.child.send('flush');
      const exit = await child.exited;
      const flushed = flushedLine(child);
      const calls = await listServerCalls(server.url, project);
      expect({
        exit,
        pending: flushed.pending,
        failed: flushed.failed,
        outboxLeft: flushed.outboxLeft,
      }).toEqual({ exit: { code: 0, signal: null }, pending: 0, failed: 0, outboxLeft: 0 });
      expect({ onServer: calls.length, duplicates: duplicateIds(calls) }).toEqual({
        onServer: CALLS,
        duplicates: [],
      });
      // Each call went straight to the server or through the outbox, and what went to the outbox came back.
      expect(flushed.sent + flushed.spilled).toBe(CALLS);
      expect(flushed.replayed).toBe(flushed.spilled);
    },
    90_000,
  );

  it('with the server down for the whole deadline, flush waits for it until the deadline, then resolves with every call in the outbox', async () => {
    const server = await startServerProcess();
    await server.kill('SIGKILL');
    const project = 'server-down';
    const outboxDir = await tempDir('weft-down-outbox-');
    const child = await runChild(childScript, {
      env: {
        WEFT_URL: server.url,
        PROJECT: project,
        OUTBOX_DIR: outboxDir,
        CALLS: String(CALLS),
        SPREAD_TURNS: '1',
        TURN_MS: '0',
        TIMEOUT_MS: String(DOWN_DEADLINE_MS),
      },
    });
    const exit = await child.exited;
    const flushed = flushedLine(child);
    expect({ exit, ...flushed }).toMatchObject({
      exit: { code: 0, signal: null },
      sent: 0,
      spilled: CALLS,
      failed: 0,
      pending: 0,
      outboxLeft: CALLS,
    });
    // It did not give up once everything was on disk (before the fix it resolved then): it waited for
    // the server until its deadline. A lower bound only (a timer may fire up to one busy loop turn
    // early by the wall clock), never an upper one.
    expect(flushed.elapsedMs).toBeGreaterThanOrEqual(DOWN_DEADLINE_MS - 250);
    // Durable: once the server is back, a replay of the folder delivers every call once.
    await server.start();
    const replay = await replayOutbox({ dir: outboxDir, url: server.url, onWarning: () => {} });
    expect(replay.sent).toBe(CALLS);
    const calls = await listServerCalls(server.url, project);
    expect({ onServer: calls.length, duplicates: duplicateIds(calls) }).toEqual({
      onServer: CALLS,
      duplicates: [],
    });
  }, 60_000);
});
