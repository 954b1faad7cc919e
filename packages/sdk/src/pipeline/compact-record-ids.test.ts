import { decodeMsgpack, encodeMsgpack } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { encodeIfSafe } from '../values/index.js';
import { compactRecordIds } from './compact-record-ids.js';

const id = '019ac3f2-7a10-7d2e-8c4b-5f1e2d3c4b5a';
const traceId = '019ac3f2-7a10-7d2e-8c4b-000000000001';

const complete = {
  type: 'complete',
  id,
  traceId,
  parentId: traceId,
  opName: 'chat',
  startedAt: 1.5,
  inputs: { echo: id },
  endedAt: 2.5,
  output: 'hi',
};
const root = { ...complete, id: traceId, parentId: null };
const end = { type: 'end', id, endedAt: 3, output: { text: id } };

describe('compactRecordIds', () => {
  it('writes the record ids compactly, 20 bytes fewer each, decoding to the same record', () => {
    for (const [record, ids] of [
      [complete, 3],
      [root, 2],
      [end, 1],
    ] as const) {
      for (const encoded of [encodeMsgpack(record), encodeIfSafe(record) as Uint8Array]) {
        const original = Uint8Array.from(encoded);
        const compacted = compactRecordIds(encoded);
        expect(compacted.byteLength).toBe(original.byteLength - 20 * ids);
        expect(compacted.buffer).toBe(encoded.buffer); // in place: nothing copied
        expect(decodeMsgpack(compacted)).toEqual(decodeMsgpack(original));
        expect(decodeMsgpack(compacted)).toEqual(record);
      }
    }
  });

  it('leaves ids that are not lowercase UUIDs, and other shapes, as they are', () => {
    const upper = {
      ...complete,
      id: id.toUpperCase(),
      traceId: 'not-a-uuid-but-36-characters-long-xx',
      parentId: null,
    };
    const bytes = encodeMsgpack(upper);
    const before = Uint8Array.from(bytes);
    expect(Uint8Array.from(compactRecordIds(bytes))).toEqual(before);
    expect(decodeMsgpack(compactRecordIds(bytes))).toEqual(upper);
    const other = encodeMsgpack([id, { id }]);
    expect(compactRecordIds(other)).toBe(other);
  });
});
