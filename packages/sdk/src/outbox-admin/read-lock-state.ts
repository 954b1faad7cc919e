import { join } from 'node:path';
import { inspectOutboxLock, LOCK_FILE_NAME, nodeOutboxFileSystem } from '../outbox/index.js';

/**
 * Who holds an outbox folder, read without taking the lock:
 * - `none`: no lock file;
 * - `held`: a live process on this host (this one included), or a process on
 *   another host, which cannot be checked and so counts as live;
 * - `stale`: the owner is gone (a crash); the next `Outbox.open` replaces it.
 */
export type OutboxLockState =
  | { state: 'none' }
  | { state: 'held'; pid: number | undefined; hostname: string | undefined }
  | { state: 'stale'; pid: number | undefined };

/** Reads the lock file of the outbox in `dir`, judged by the same rules as `Outbox.open` (docs/outbox.md). */
export async function readLockState(dir: string): Promise<OutboxLockState> {
  const verdict = await inspectOutboxLock(nodeOutboxFileSystem, join(dir, LOCK_FILE_NAME));
  if (verdict.state !== 'held') return verdict;
  return { state: 'held', pid: verdict.pid, hostname: verdict.hostname };
}
