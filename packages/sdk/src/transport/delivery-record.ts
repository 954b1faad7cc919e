import { routes } from '@weft/protocol';
import type { ApiClient, SendResult } from './api-client.js';

/**
 * Records that travel one per request, beside the call batches: what a call's
 * refs point at. Each kind is one request to its route; the outbox keeps them
 * in the same files as calls (see `encodeDeliveryRecord`) and replay sends
 * them with {@link sendDeliveryRecord} as well, so there is one mapping from
 * a record to the wire.
 *
 * | kind         | route                  | body                                |
 * |--------------|------------------------|-------------------------------------|
 * | `object`     | `objectCreate`         | `{ project, name, kind, digest, value }` |
 * | `file`       | `fileCreate(project)`  | the bytes (`application/octet-stream`) |
 * | `table-rows` | `tableRowsPut`         | `{ project, rows: [{ digest, value }] }` |
 * | `table`      | `tableByDigests`       | `{ project, rowDigests, digest }`   |
 */
export type DeliveryKind = 'object' | 'file' | 'table-rows' | 'table';

/** One record of {@link DeliveryKind}; `label` names it in warnings (e.g. `object guidelines:<digest>`). */
export interface DeliveryRecord {
  kind: DeliveryKind;
  /** A `Uint8Array` for `file`, a msgpack-encodable value otherwise. */
  body: unknown;
  label: string;
}

/** The kinds, for validating what the outbox hands back. */
export const DELIVERY_KINDS: ReadonlySet<string> = new Set<DeliveryKind>([
  'object',
  'file',
  'table-rows',
  'table',
]);

/** Sends one record to its route; never throws (the result says what became of it). */
export function sendDeliveryRecord(
  api: Pick<ApiClient, 'post' | 'postBytes'>,
  project: string,
  record: Pick<DeliveryRecord, 'kind' | 'body'>,
): Promise<SendResult> {
  switch (record.kind) {
    case 'object':
      return api.post(routes.objectCreate(), record.body);
    case 'file':
      return api.postBytes(routes.fileCreate(project), record.body as Uint8Array);
    case 'table-rows':
      return api.post(routes.tableRowsPut(), record.body);
    case 'table':
      return api.post(routes.tableByDigests(), record.body);
  }
}
