import { resolve } from 'node:path';
import { Outbox } from './outbox.js';
import type { OutboxOptions } from './outbox-options.js';

interface Shared {
  readonly outbox: Promise<Outbox>;
  users: number;
}

/**
 * Outboxes open in this process, by folder. The outbox folder is locked per
 * process, so two clients of the same project share one instance instead of
 * the second failing to take the lock.
 */
const shared = new Map<string, Shared>();

/** Opens (or joins) the outbox in `options.dir`. */
export function acquireOutbox(options: OutboxOptions): Promise<Outbox> {
  const dir = resolve(options.dir);
  let entry = shared.get(dir);
  if (entry === undefined) {
    entry = { outbox: Outbox.open({ ...options, dir }), users: 0 };
    shared.set(dir, entry);
    // A failed open is forgotten, so a later client may try again.
    entry.outbox.catch(() => shared.delete(dir));
  }
  entry.users++;
  return entry.outbox;
}

/** Leaves the outbox in `dir`; the last user closes it. */
export async function releaseOutbox(dir: string): Promise<void> {
  const key = resolve(dir);
  const entry = shared.get(key);
  if (entry === undefined) return;
  entry.users--;
  if (entry.users > 0) return;
  shared.delete(key);
  const outbox = await entry.outbox.catch(() => undefined);
  await outbox?.close();
}
