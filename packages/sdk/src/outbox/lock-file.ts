import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { OutboxLockedError } from './errors/index.js';
import type { OutboxFileSystem } from './outbox-file-system.js';

/** Name of the advisory lock file inside an outbox folder. */
export const LOCK_FILE_NAME = 'outbox.lock';

/**
 * Lock files this process holds. Kept on a `Symbol.for` global so duplicated
 * copies of the package in one process still see each other's locks.
 */
const held = heldLocks();

function heldLocks(): Set<string> {
  const registry = globalThis as Record<symbol, Set<string> | undefined>;
  const key = Symbol.for('weft.outbox.locks');
  registry[key] ??= new Set<string>();
  return registry[key];
}

/** A lock file whose content is not readable yet may be mid-creation; past this age it is a crash leftover. */
const UNREADABLE_LOCK_STALE_AFTER_MS = 10_000;

interface LockOwner {
  pid: number;
  hostname: string;
  token: string;
  /** When the owning process started (ms since epoch); tells this process from an earlier one with the same pid. */
  processStartedAtMs?: number;
}

/** Two readings of this process's start time differ by clock adjustments only; an earlier process is far off. */
const SAME_PROCESS_TOLERANCE_MS = 250;

function processStartedAtMs(): number {
  // Same value in every worker thread of the process: uptime counts from the process start.
  return Math.round(Date.now() - process.uptime() * 1000);
}

/** A held outbox lock. */
export interface OutboxLock {
  readonly path: string;
  /** Removes the lock file if it is still ours; idempotent. */
  release(): Promise<void>;
}

/**
 * Takes the advisory lock of an outbox folder: a file created with O_EXCL
 * holding `{ pid, hostname, token, processStartedAtMs }`. A lock whose pid is
 * dead on this host is stale and is replaced; so is one with our own pid but
 * an earlier start time (pid 1 in a restarted container). Our pid with our
 * start time is another thread or instance of this process: locked.
 *
 * Not proof against two processes replacing the same stale lock at the same
 * instant: the outbox contract is one process per folder; this catches the
 * mistake, it does not arbitrate a race.
 */
export async function acquireOutboxLock(fs: OutboxFileSystem, dir: string): Promise<OutboxLock> {
  const path = join(dir, LOCK_FILE_NAME);
  if (held.has(path))
    throw new OutboxLockedError(path, process.pid, 'another Outbox in this process has it open');
  held.add(path); // reserved before the first await, so two open() calls in one process cannot both win
  try {
    const owner: LockOwner = {
      pid: process.pid,
      hostname: hostname(),
      token: randomUUID(),
      processStartedAtMs: processStartedAtMs(),
    };
    for (let attempt = 0; ; attempt++) {
      let handle: Awaited<ReturnType<OutboxFileSystem['open']>>;
      try {
        handle = await fs.open(path, 'wx');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 2) throw error;
        await removeIfStale(fs, path);
        continue;
      }
      try {
        const content = Buffer.from(`${JSON.stringify(owner)}\n`);
        await handle.write(content, 0, content.byteLength, 0);
        await handle.sync();
      } finally {
        await handle.close();
      }
      return { path, release: once(() => release(fs, path, owner.token)) };
    }
  } catch (error) {
    held.delete(path);
    throw error;
  }
}

/** Who holds an outbox lock, by the rules {@link acquireOutboxLock} applies. */
export type OutboxLockVerdict =
  | { state: 'none' }
  | { state: 'held'; pid: number | undefined; hostname: string | undefined; reason: string }
  | { state: 'stale'; pid: number | undefined };

/**
 * Judges the lock file at `path` without taking it: one rule for
 * `acquireOutboxLock` (which replaces a stale lock) and for status readers
 * such as `weft outbox status`.
 */
export async function inspectOutboxLock(fs: OutboxFileSystem, path: string): Promise<OutboxLockVerdict> {
  const { owner, mtimeMs } = await readLock(fs, path);
  if (owner === undefined) {
    if (mtimeMs === undefined) return { state: 'none' };
    if (Date.now() - mtimeMs < UNREADABLE_LOCK_STALE_AFTER_MS) {
      return {
        state: 'held',
        pid: undefined,
        hostname: undefined,
        reason: 'its owner is writing it right now',
      };
    }
    return { state: 'stale', pid: undefined };
  }
  const held = (reason: string): OutboxLockVerdict => ({
    state: 'held',
    pid: owner.pid,
    hostname: owner.hostname,
    reason,
  });
  if (owner.hostname !== hostname()) return held(`by pid ${owner.pid} on host ${owner.hostname}`);
  if (owner.pid === process.pid) {
    const started = owner.processStartedAtMs;
    if (started !== undefined && Math.abs(started - processStartedAtMs()) <= SAME_PROCESS_TOLERANCE_MS) {
      return held('by another thread of this process');
    }
    return { state: 'stale', pid: owner.pid };
  }
  if (isAlive(owner.pid)) return held(`by live process ${owner.pid}`);
  return { state: 'stale', pid: owner.pid };
}

async function removeIfStale(fs: OutboxFileSystem, path: string): Promise<void> {
  const verdict = await inspectOutboxLock(fs, path);
  if (verdict.state === 'held') throw new OutboxLockedError(path, verdict.pid, verdict.reason);
  if (verdict.state === 'none') return; // vanished meanwhile: just retry
  try {
    await fs.unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

async function readLock(
  fs: OutboxFileSystem,
  path: string,
): Promise<{ owner: LockOwner | undefined; mtimeMs: number | undefined }> {
  let handle: Awaited<ReturnType<OutboxFileSystem['open']>>;
  try {
    handle = await fs.open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { owner: undefined, mtimeMs: undefined };
    throw error;
  }
  try {
    const { size, mtimeMs } = await handle.stat();
    const bytes = Buffer.alloc(Math.min(size, 4096));
    const { bytesRead } = await handle.read(bytes, 0, bytes.byteLength, 0);
    return { owner: parseOwner(bytes.subarray(0, bytesRead).toString('utf8')), mtimeMs };
  } finally {
    await handle.close();
  }
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (
      Number.isSafeInteger(value.pid) &&
      typeof value.hostname === 'string' &&
      typeof value.token === 'string'
    ) {
      return value as LockOwner;
    }
  } catch {
    // Unreadable content: the caller decides by age.
  }
  return undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function release(fs: OutboxFileSystem, path: string, token: string): Promise<void> {
  try {
    const { owner } = await readLock(fs, path);
    // Only remove our own lock: someone may have judged ours stale and replaced it.
    if (owner?.token === token) await fs.unlink(path);
  } finally {
    held.delete(path);
  }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let result: Promise<void> | undefined;
  return () => {
    result ??= fn();
    return result;
  };
}
