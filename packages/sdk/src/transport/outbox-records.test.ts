import { decodeMsgpack, encodeMsgpack } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { decodeOutboxRecord, encodeOutboxRecord } from './outbox-records.js';

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
