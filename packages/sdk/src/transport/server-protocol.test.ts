import { arrayDigest, decodeMsgpack, digestBytes, encodeMsgpack, PROTOCOL_VERSION } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { useScriptedServer } from '../../test/support/transport/scripted-server.js';
import { arrayValueItem, plainValueItem } from '../dedup/value-item.js';
import { batchBodyPrefix, encodeBatchBody } from './batch-body.js';
import { callBatchBodyV1, REFUSED_PROBE_RETRY_MS, ServerProtocol } from './server-protocol.js';

const body = () =>
  encodeBatchBody(batchBodyPrefix('p'), [encodeMsgpack({ type: 'end', id: 'x', endedAt: 1 })]);

describe('ApiClient.postCallBatch: the server protocol probe', () => {
  const scripted = useScriptedServer();

  it('probes once for concurrent and later batches', async () => {
    const { server, client } = scripted;
    const results = await Promise.all([client.postCallBatch(body()), client.postCallBatch(body())]);
    await client.postCallBatch(body());
    expect(results.map((result) => result.status)).toEqual(['sent', 'sent']);
    expect(server.versionProbes).toBe(1);
    expect(client.protocol.probes).toBe(1);
    expect(server.batches).toHaveLength(3);
  });

  it('a failing probe (503) decides nothing: the batch gets its failure, unsent, and the next batch probes again', async () => {
    const { server, client } = scripted;
    server.versionScript = () => ({ status: 503 });
    expect(await client.postCallBatch(body())).toMatchObject({ status: 'retryable', statusCode: 503 });
    expect(server.batches).toHaveLength(0);
    server.versionScript = () => ({ status: 200, body: { version: 'x', protocolVersion: PROTOCOL_VERSION } });
    expect(await client.postCallBatch(body())).toMatchObject({ status: 'sent' });
    expect(server.versionProbes).toBe(2);
    expect(server.batches).toHaveLength(1);
  });

  it("regression: a refused probe (403 from a proxy) pinned protocol 1 for the client's life; now it stands for a while, then the client asks again", async () => {
    const { server, client } = scripted;
    let now = 0;
    const protocol = new ServerProtocol(
      (path) => client.get(path),
      () => now,
    );
    server.versionScript = () => ({ status: 403, body: { error: { code: 'FORBIDDEN', message: 'no' } } });
    expect(await protocol.answer()).toEqual({ version: 1 });
    server.versionScript = () => ({ status: 200, body: { version: 'x', protocolVersion: PROTOCOL_VERSION } });
    now = REFUSED_PROBE_RETRY_MS - 1;
    expect(await protocol.answer()).toEqual({ version: 1 });
    expect(protocol.probes).toBe(1);
    now = REFUSED_PROBE_RETRY_MS;
    expect(await protocol.answer()).toEqual({ version: PROTOCOL_VERSION });
    now = 10 * REFUSED_PROBE_RETRY_MS;
    expect(await protocol.answer()).toEqual({ version: PROTOCOL_VERSION });
    expect(protocol.probes).toBe(2);
  });

  it("a 404 (a server older than the route) means protocol 1 for the client's life", async () => {
    const { server, client } = scripted;
    let now = 0;
    const protocol = new ServerProtocol(
      (path) => client.get(path),
      () => now,
    );
    server.versionScript = () => ({ status: 404 });
    expect(await protocol.answer()).toEqual({ version: 1 });
    now = 10 * REFUSED_PROBE_RETRY_MS;
    expect(await protocol.answer()).toEqual({ version: 1 });
    expect(protocol.probes).toBe(1);
  });

  it('a batch whose probe was refused (401) is sent in protocol 1 forms, not held back', async () => {
    const { server, client } = scripted;
    server.versionScript = () => ({ status: 401 });
    expect(await client.postCallBatch(body())).toMatchObject({ status: 'sent' });
    expect(server.batches).toHaveLength(1);
  });

  it('a 2xx without protocolVersion means protocol 1, and is remembered', async () => {
    const { server, client } = scripted;
    server.versionScript = () => ({ status: 200, body: { version: 'x' } });
    await client.postCallBatch(body());
    await client.postCallBatch(body());
    expect(server.versionProbes).toBe(1);
    expect(await client.protocol.answer()).toEqual({ version: 1 });
  });
});

describe('callBatchBodyV1', () => {
  it('gives compact value items their map forms, and puts back the statuses records left out', () => {
    const bytes = encodeMsgpack({ text: 'a value '.repeat(40) });
    const digest = digestBytes(bytes);
    const items = [encodeMsgpack('a'), encodeMsgpack('b')];
    const prev = arrayDigest(undefined, items.slice(0, 1));
    const chain = arrayDigest(prev, items.slice(1));
    const complete = { type: 'complete', id: 'a', traceId: 'a', parentId: null, opName: 'op', inputs: {} };
    const failure = { name: 'Error', message: 'no' };
    const plain = decodeMsgpack(
      callBatchBodyV1(
        encodeBatchBody(batchBodyPrefix('p'), [
          plainValueItem(digest, [bytes]),
          arrayValueItem(chain, prev, items.slice(1)),
          encodeMsgpack({ ...complete, startedAt: 1, endedAt: 3, summary: {} }),
          encodeMsgpack({ type: 'end', id: 'b', endedAt: 5, exception: failure, summary: { latencyMs: 2 } }),
        ]),
      ),
    ) as { items: Record<string, unknown>[] };
    // Re-encoded as maps (bins decode as Buffers): compared byte for byte.
    expect(plain.items[0]).toEqual({ type: 'value', digest, bytes: Buffer.from(bytes) });
    expect(plain.items[1]).toEqual({
      type: 'value',
      digest: chain,
      prev,
      items: [Buffer.from(items[1] as Uint8Array)],
    });
    expect(plain.items[2]?.summary).toEqual({ latencyMs: 2, status: 'success' });
    expect(plain.items[3]?.summary).toEqual({ latencyMs: 2, status: 'error' });
  });

  it('puts back the latency complete records left out, and gives compact digests their string form', () => {
    const digest = Buffer.alloc(32, 0xcd);
    const compactDigest = Uint8Array.from([0xc7, 0x20, 0x44, ...digest]);
    const complete = { type: 'complete', id: 'a', traceId: 'a', parentId: null, opName: 'op', inputs: {} };
    const items = [
      encodeMsgpack({ ...complete, startedAt: 100.5, endedAt: 130, summary: { status: 'success' } }),
      encodeMsgpack({
        ...complete,
        startedAt: 100,
        endedAt: 130,
        summary: { latencyMs: 3, status: 'error' },
      }),
      // { type: 'value', digest: <ext 0x44>, bytes: <nil> }
      Uint8Array.from([
        0x83,
        ...encodeMsgpack('type'),
        ...encodeMsgpack('value'),
        ...encodeMsgpack('digest'),
        ...compactDigest,
        ...encodeMsgpack('bytes'),
        0xc4,
        1,
        0xc0,
      ]),
    ];
    const plain = decodeMsgpack(callBatchBodyV1(encodeBatchBody(batchBodyPrefix('p'), items))) as {
      items: Record<string, unknown>[];
    };
    expect(plain.items[0]?.summary).toEqual({ latencyMs: 29.5, status: 'success' });
    expect(plain.items[1]?.summary).toEqual({ latencyMs: 3, status: 'error' });
    expect(plain.items[2]?.digest).toBe(digest.toString('base64url'));
  });

  it('gives compact ids and markers their protocol 1 forms, other values unchanged', () => {
    const compact = new Uint8Array([
      0x82,
      0xa2,
      0x69,
      0x64,
      0xd8,
      0x55,
      ...new Array(16).fill(0x11),
      0xa1,
      0x76,
      0xc7,
      0x20,
      0x57,
      ...new Array(32).fill(0xab),
    ]);
    const plain = callBatchBodyV1(compact);
    expect(decodeMsgpack(plain)).toEqual(decodeMsgpack(compact));
    expect(plain.includes(0x55) || plain.includes(0x57)).toBe(false);
    expect(decodeMsgpack(plain)).toEqual({
      id: '11111111-1111-1111-1111-111111111111',
      v: { _weft: 'value', digest: expect.stringMatching(/^[\w-]{43}$/) },
    });
  });
});
