import { type CallItem, decodeMsgpack, encodeMsgpack } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { encodeIfSafe, encodeRecordIfSafe } from '../values/index.js';
import { encodeCallItem } from './encode-call-item.js';

const id = '019ac3f2-7a10-7d2e-8c4b-5f1e2d3c4b5a';
const traceId = '019ac3f2-7a10-7d2e-8c4b-000000000001';

const complete = {
  type: 'complete',
  id,
  traceId,
  parentId: traceId,
  opName: 'chat',
  startedAt: 1.5,
  inputs: { echo: id, nested: { id } },
  endedAt: 2.5,
  output: 'hi',
};
const root = { ...complete, id: traceId, parentId: null };
const end = { type: 'end', id, endedAt: 3, output: { text: id, id } };

/** Both encoders of a record: the one-pass encoder (fast path) and the walked record's. */
const encoders = {
  encodeRecordIfSafe: (record: object) => encodeRecordIfSafe(record, {}, Number.POSITIVE_INFINITY, undefined),
  encodeCallItem: (record: object) => encodeCallItem(record as CallItem),
};

describe.each(Object.entries(encoders))('%s', (_, encode) => {
  it('writes the record ids compactly, 20 bytes fewer each, decoding to the same record', () => {
    for (const [record, ids] of [
      [complete, 3],
      [root, 2],
      [end, 1],
    ] as const) {
      const bytes = encode(record) as Uint8Array;
      expect(bytes.byteLength).toBe(encodeMsgpack(record).byteLength - 20 * ids);
      expect(decodeMsgpack(bytes)).toEqual(record);
    }
  });

  it('leaves ids that are not lowercase UUIDs as strings, and ids inside values as they are', () => {
    const upper = {
      ...complete,
      id: id.toUpperCase(),
      traceId: 'not-a-uuid-but-36-characters-long-xx',
      parentId: null,
    };
    const bytes = encode(upper) as Uint8Array;
    expect(bytes.byteLength).toBe(encodeMsgpack(upper).byteLength);
    expect(decodeMsgpack(bytes)).toEqual(upper);
    // Only the record's own ids: the same strings in its values stay strings (3 ids compacted, not 5).
    expect(encode(complete)?.byteLength).toBe(encodeMsgpack(complete).byteLength - 60);
  });
});

describe('encodeIfSafe', () => {
  it('writes the members of any other value as they are', () => {
    const value = { id, traceId };
    expect(Uint8Array.from(encodeIfSafe(value) as Uint8Array)).toEqual(Uint8Array.from(encodeMsgpack(value)));
  });
});
