import { expect, it } from 'vitest';
import { useScriptedServer } from '../../test/support/transport/scripted-server.js';
import type { RecordPayload } from './batcher-options.js';
import { DEFAULT_RETRY_POLICY } from './delivery-rules.js';
import { RecordDelivery } from './record-delivery.js';

const scripted = useScriptedServer();

/** A delivery of two attempts per record into an outbox that keeps what it is given. */
function delivery(): { delivery: RecordDelivery; kept: RecordPayload[] } {
  const kept: RecordPayload[] = [];
  const outbox = {
    async append(records: readonly RecordPayload[]) {
      kept.push(...records);
    },
  };
  return {
    kept,
    delivery: new RecordDelivery({
      project: 'proj',
      api: scripted.client,
      outbox,
      health: undefined,
      warnings: { report: () => {} },
      policy: { ...DEFAULT_RETRY_POLICY, maxAttempts: 2, backoff: { baseMs: 1, maxMs: 1 } },
    }),
  };
}

const object = { kind: 'object', label: 'object o', body: { project: 'proj', name: 'o' } } as const;

it('sends a record the server refused with 503 + Retry-After more often than maxAttempts, then failed once, keeping nothing', async () => {
  // Six refusals spend no attempt; the real failure after them spends the first of two.
  scripted.server.script = (_request, index) =>
    index < 6
      ? { status: 503, headers: { 'retry-after': '0.001' } }
      : index === 6
        ? { status: 503 }
        : { status: 200, body: {} };
  const { delivery: records, kept } = delivery();
  expect(await records.deliver(object)).toMatchObject({ status: 'sent' });
  expect(scripted.server.requests).toHaveLength(8);
  expect(kept).toEqual([]);
});

it('keeps a record in the outbox after maxAttempts real failures (503 without Retry-After)', async () => {
  scripted.server.script = () => ({ status: 503 });
  const { delivery: records, kept } = delivery();
  expect(await records.deliver(object)).toEqual({ status: 'spilled' });
  expect(scripted.server.requests).toHaveLength(2);
  expect(kept).toHaveLength(1);
});
