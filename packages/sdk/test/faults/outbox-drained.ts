import { setTimeout as sleep } from 'node:timers/promises';
import type { WeftClient } from '@weft/sdk';

/**
 * Waits until the client's outbox holds no unacknowledged record, and returns
 * how many are left (0 when drained, more when `timeoutMs` passed first).
 *
 * `flush()` resolves once every call is sent OR durably in the outbox; the
 * outbox is replayed afterwards, in the background, when the circuit closes.
 * The SDK exposes no event for "replay finished", so this reads the
 * `diagnostics().outbox` gauge (no I/O) every `intervalMs` until it reaches
 * zero. It is a bounded wait on a gauge, not a sleep standing in for an
 * event: if the outbox never drains, the caller sees the count left.
 */
export async function waitForOutboxDrained(
  client: WeftClient,
  { timeoutMs = 20_000, intervalMs = 50 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outbox = client.diagnostics().outbox;
    const left = outbox === undefined ? 0 : outbox.records + outbox.pendingRecords;
    if (left === 0 || Date.now() >= deadline) return left;
    await sleep(intervalMs);
  }
}
