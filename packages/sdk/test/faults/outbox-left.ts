import type { WeftClient } from '@weft/sdk';

/**
 * Records the client's outbox still holds (written or waiting to be
 * written), read from the `diagnostics().outbox` gauge. A flush delivers the
 * outbox before it resolves when the server takes records, so after one this
 * is 0 unless the server kept failing until its deadline.
 */
export function outboxLeft(client: WeftClient): number {
  const outbox = client.diagnostics().outbox;
  return outbox === undefined ? 0 : outbox.records + outbox.pendingRecords;
}
