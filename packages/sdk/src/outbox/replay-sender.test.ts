import { encodeMsgpack } from '@weft/protocol';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { ApiClient, encodeOutboxRecord } from '../transport/index.js';
import { Outbox } from './outbox.js';
import { createReplaySender } from './replay-sender.js';
import { ScriptedServer } from '../../test/support/transport/scripted-server.js';
import { tempDir } from '../../test/support/outbox/temp-dir.js';

const id = (n: number) => `01890000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
const item = (n: number) => encodeMsgpack({ type: 'end', id: id(n), endedAt: n, output: n });

describe('createReplaySender', () => {
  let server: ScriptedServer;
  let client: ApiClient;
  beforeEach(async () => {
    server = await ScriptedServer.start();
    client = new ApiClient({ url: server.url });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  it('sends each run of one project as one request, in order: it never batches again', async () => {
    const send = createReplaySender(client);
    const records = [
      encodeOutboxRecord('a', item(1)),
      encodeOutboxRecord('a', item(2)),
      encodeOutboxRecord('a', item(3)),
      encodeOutboxRecord('b', item(4)),
      encodeOutboxRecord('a', item(5)),
    ];
    await expect(send(records)).resolves.toBe(true);
    expect(server.batches.map((batch) => [batch.project, batch.items.map((i) => i.id)])).toEqual([
      ['a', [id(1), id(2), id(3)]],
      ['b', [id(4)]],
      ['a', [id(5)]],
    ]);
  });

  it('replay batches once: each batch Outbox.replay hands over (500 records by default) is one request', async () => {
    const dir = await tempDir();
    const outbox = await Outbox.open({ dir });
    onTestFinished(() => outbox.close());
    await outbox.append(Array.from({ length: 1_200 }, (_, n) => encodeOutboxRecord('a', item(n))));
    const send = createReplaySender(client);
    const requestsPerSend: number[] = [];
    const result = await outbox.replay(async (records) => {
      const before = server.batches.length;
      const ok = await send(records);
      requestsPerSend.push(server.batches.length - before);
      return ok;
    });
    expect(result).toMatchObject({ sent: 1_200, remaining: 0 });
    expect(requestsPerSend).toEqual([1, 1, 1]);
    expect(server.batches.map((batch) => batch.items.length)).toEqual([500, 500, 200]);
  });

  it('returns false while the server fails, so the segment is kept', async () => {
    server.script = () => ({ status: 503 });
    const send = createReplaySender(client);
    await expect(send([encodeOutboxRecord('a', item(1))])).resolves.toBe(false);
  });

  it('returns false on 401 and says why', async () => {
    server.script = () => ({
      status: 401,
      body: { error: { code: 'WEFT_UNAUTHORIZED', message: 'token required' } },
    });
    const warnings: string[] = [];
    const send = createReplaySender(client, (message) => warnings.push(message));
    await expect(send([encodeOutboxRecord('a', item(1))])).resolves.toBe(false);
    expect(warnings.join('\n')).toContain('401');
  });

  it('drops and reports a record the server rejects as invalid, and sends the rest', async () => {
    const bad = id(2);
    server.script = (request) => {
      const items = (request.body as { items: { id: string }[] }).items;
      const index = items.findIndex((i) => i.id === bad);
      return index >= 0
        ? {
            status: 400,
            body: { error: { code: 'WEFT_INVALID_REQUEST', message: 'endedAt must be a number', index } },
          }
        : { status: 200, body: {} };
    };
    const warnings: { message: string; details: Record<string, unknown> }[] = [];
    const send = createReplaySender(client, (message, details) => warnings.push({ message, details }));
    const records = [1, 2, 3].map((n) => encodeOutboxRecord('a', item(n)));
    await expect(send(records)).resolves.toBe(true);
    expect([...server.calls.keys()].sort()).toEqual([id(1), id(3)]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.details).toMatchObject({ callId: bad, code: 'WEFT_RECORD_REJECTED' });
  });

  it('skips and reports malformed records without losing the others', async () => {
    const warnings: string[] = [];
    const send = createReplaySender(client, (message) => warnings.push(message));
    await expect(send([Uint8Array.of(1, 2, 3), encodeOutboxRecord('a', item(9))])).resolves.toBe(true);
    expect([...server.calls.keys()]).toEqual([id(9)]);
    expect(warnings).toHaveLength(1);
  });
});
