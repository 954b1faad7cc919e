import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { Outbox } from './index.js';
import { recordNumber } from '../../test/support/outbox/records.js';
import { tempDir } from '../../test/support/outbox/temp-dir.js';
import { seededRandom, testSeed } from '../../test/support/seeded-random.js';

/**
 * One child per policy, one after another in the same folder. A SIGKILL (unlike a power loss) keeps
 * whatever reached the page cache, so every policy must keep what it reported; 'never' spends its time
 * in write() rather than fsync(), which is where a kill tears a record.
 */
const POLICIES = ['batch', 'never', 'segment', 'never'] as const;
const ROUNDS = POLICIES.length;
const ROUND_BASE = 1_000_000;
/** The child is killed once at least this many of its records are durable. */
const KILL_AFTER_RECORDS = 500;
/** Kill delays drawn from a seeded PRNG (`WEFT_TEST_SEED` replays another sequence), so a run's draws can be repeated. */
const random = seededRandom(testSeed(2026));

/** Bundles the child (the outbox's TypeScript source, as vitest would compile it) into one runnable file. */
async function buildChildScript(): Promise<string> {
  const outfile = join(await tempDir(), 'append-loop.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('../../test/support/outbox/append-loop.ts', import.meta.url))],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    alias: { '@weft/protocol': fileURLToPath(new URL('../../../protocol/src/index.ts', import.meta.url)) },
    logLevel: 'error',
  });
  return outfile;
}

/** Runs the child appending from `first` and SIGKILLs it mid-burst; returns the last count it reported durable. */
async function appendUntilKilled(
  childScript: string,
  dir: string,
  first: number,
  fsync: string,
  childWarnings: string[],
): Promise<number> {
  const child = spawn(process.execPath, [childScript, dir, String(first), fsync], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let durable = first;
  let killScheduled = false;
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = once(child, 'exit');
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      const [what, value] = line.split(' ');
      if (what === 'durable') durable = Math.max(durable, Number(value));
      else childWarnings.push(value!);
    }
    // Killed at a random moment once enough is durable, so the kill lands anywhere in the child's
    // cycle (encoding, write(), fsync()), not always at the same step after a report. Appends are
    // always in flight: the child keeps several queued.
    if (durable - first >= KILL_AFTER_RECORDS && !killScheduled) {
      killScheduled = true;
      setTimeout(() => child.kill('SIGKILL'), random() * 40);
    }
  });
  const [code, signal] = await exited;
  expect({ code, signal, stderr }).toEqual({ code: null, signal: 'SIGKILL', stderr: '' });
  return durable;
}

describe('outbox after SIGKILL', () => {
  it('recovers every record reported durable, in order, and replays no corrupt record', async () => {
    const childScript = await buildChildScript();
    const dir = await tempDir();
    const reported: number[] = [];
    const childWarnings: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Each round reopens the folder the previous child was killed in (repairing its tail) and appends more.
      reported.push(
        (await appendUntilKilled(childScript, dir, round * ROUND_BASE, POLICIES[round]!, childWarnings)) -
          round * ROUND_BASE,
      );
    }

    const warnings: Record<string, unknown>[] = [];
    const outbox = await Outbox.open({ dir, onWarning: (_message, details) => warnings.push(details) });
    const numbers: number[] = [];
    // recordNumber() throws unless a record is byte for byte what the child appended.
    await outbox.replay(async (batch) => {
      for (const bytes of batch) numbers.push(recordNumber(bytes));
      return true;
    });
    await outbox.close();
    // A tail torn by the kill is the only thing the children and the final open may have found.
    expect(warnings.filter((w) => w.kind !== 'torn-tail')).toEqual([]);
    expect(childWarnings.filter((kind) => kind !== 'torn-tail')).toEqual([]);

    for (let round = 0; round < ROUNDS; round++) {
      const base = round * ROUND_BASE;
      const ofRound = numbers.filter((n) => n >= base && n < base + ROUND_BASE);
      // A gapless prefix of what the child appended, at least as long as what it reported durable.
      expect(ofRound.length).toBeGreaterThanOrEqual(reported[round]!);
      expect(ofRound).toEqual(Array.from({ length: ofRound.length }, (_, i) => base + i));
    }
    // Rounds in order: oldest first.
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });
});
