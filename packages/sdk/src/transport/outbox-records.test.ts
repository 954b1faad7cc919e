import { decodeMsgpack, encodeMsgpack } from '@weft/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from './api-client.js';
import { createOutboxSender, decodeOutboxRecord, encodeOutboxRecord } from './outbox-records.js';
import { ScriptedServer } from '../../test/support/transport/scripted-server.js';

const id = (n: number) => `01890000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
const item = (n: number) => encodeMsgpack({ type: 'end', id: id(n), endedAt: n, output: n });

describe('outbox record format', () => {
  it.each(['p', 'a'.repeat(31), 'b'.repeat(32), 'c'.repeat(128)])(
    'round-trips project %s and keeps the item bytes',
    (project) => {
      const bytes = item(7);
      const record = encodeOutboxRecord(project, bytes);
      const decoded = decodeOutboxRecord(record);
      if (typeof decoded === 'string') throw new Error(decoded);
      expect(decoded.project).toBe(project);
      expect(Buffer.from(decoded.itemBytes).equals(bytes)).toBe(true);
      // Any msgpack reader sees [version, project, item].
      expect(decodeMsgpack(record)).toEqual([1, project, decodeMsgpack(bytes)]);
    },
  );

  it.each([
    ['empty', new Uint8Array(0)],
    ['not an array', encodeMsgpack({ a: 1 })],
    ['another version', Uint8Array.of(0x93, 0x02, 0xa1, 0x70, 0xc0)],
    ['a truncated project', Uint8Array.of(0x93, 0x01, 0xa5, 0x70)],
    ['no item', Uint8Array.of(0x93, 0x01, 0xa1, 0x70)],
    ['an invalid project', encodeOutboxRecord('../etc', item(1))],
  ])('reports %s as malformed', (_name, bytes) => {
    expect(typeof decodeOutboxRecord(bytes)).toBe('string');
  });
});

describe('createOutboxSender', () => {
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

  it('sends records grouped by project, in order, in bounded batches', async () => {
    const send = createOutboxSender(client, undefined, { maxBatchItems: 2 });
    const records = [
      encodeOutboxRecord('a', item(1)),
      encodeOutboxRecord('a', item(2)),
      encodeOutboxRecord('a', item(3)),
      encodeOutboxRecord('b', item(4)),
      encodeOutboxRecord('a', item(5)),
    ];
    await expect(send(records)).resolves.toBe(true);
    expect(server.batches.map((batch) => [batch.project, batch.items.map((i) => i.id)])).toEqual([
      ['a', [id(1), id(2)]],
      ['a', [id(3)]],
      ['b', [id(4)]],
      ['a', [id(5)]],
    ]);
  });

  it('returns false while the server fails, so the segment is kept', async () => {
    server.script = () => ({ status: 503 });
    const send = createOutboxSender(client);
    await expect(send([encodeOutboxRecord('a', item(1))])).resolves.toBe(false);
  });

  it('returns false on 401 and says why', async () => {
    server.script = () => ({
      status: 401,
      body: { error: { code: 'WEFT_UNAUTHORIZED', message: 'token required' } },
    });
    const warnings: string[] = [];
    const send = createOutboxSender(client, (message) => warnings.push(message));
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
    const send = createOutboxSender(client, (message, details) => warnings.push({ message, details }));
    const records = [1, 2, 3].map((n) => encodeOutboxRecord('a', item(n)));
    await expect(send(records)).resolves.toBe(true);
    expect([...server.calls.keys()].sort()).toEqual([id(1), id(3)]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.details).toMatchObject({ callId: bad, code: 'WEFT_RECORD_REJECTED' });
  });

  it('skips and reports malformed records without losing the others', async () => {
    const warnings: string[] = [];
    const send = createOutboxSender(client, (message) => warnings.push(message));
    await expect(send([Uint8Array.of(1, 2, 3), encodeOutboxRecord('a', item(9))])).resolves.toBe(true);
    expect([...server.calls.keys()]).toEqual([id(9)]);
    expect(warnings).toHaveLength(1);
  });
});
