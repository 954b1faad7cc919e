import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { LOCK_FILE_NAME } from '../outbox/lock-file.js';

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

/** Reads the lock file of the outbox in `dir`. Mirrors the liveness rules of `Outbox.open` (docs/outbox.md). */
export async function readLockState(dir: string): Promise<OutboxLockState> {
  let text: string;
  try {
    text = await readFile(join(dir, LOCK_FILE_NAME), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'none' };
    throw error;
  }
  const owner = parseOwner(text);
  // An unreadable lock is being written right now, or is a crash leftover; open() decides by age.
  if (owner === undefined) return { state: 'held', pid: undefined, hostname: undefined };
  if (owner.hostname !== hostname() || isAlive(owner.pid)) {
    return { state: 'held', pid: owner.pid, hostname: owner.hostname };
  }
  return { state: 'stale', pid: owner.pid };
}

function parseOwner(text: string): { pid: number; hostname: string } | undefined {
  try {
    const value = JSON.parse(text) as { pid?: unknown; hostname?: unknown };
    if (
      typeof value.pid === 'number' &&
      Number.isSafeInteger(value.pid) &&
      typeof value.hostname === 'string'
    ) {
      return { pid: value.pid, hostname: value.hostname };
    }
  } catch {
    // Not JSON (yet): the caller treats it as unknown.
  }
  return undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
