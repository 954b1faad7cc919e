import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeMsgpack } from './msgpack-codec.js';
import { CALL_ID_EXT_TYPE, writeCompactCallId } from './compact-call-id.js';

function compact(id: string): Uint8Array | undefined {
  const out = new Uint8Array(18);
  return writeCompactCallId(id, out, 0) ? out : undefined;
}

describe('compact call ids', () => {
  it('decode to the very id they were written from', () => {
    for (let i = 0; i < 200; i++) {
      const id = randomUUID();
      expect(decodeMsgpack(compact(id) as Uint8Array)).toBe(id);
    }
  });

  it('are written only for lowercase canonical UUIDs', () => {
    const id = randomUUID();
    expect(compact(id.toUpperCase())).toBeUndefined();
    expect(compact(id.replaceAll('-', '_'))).toBeUndefined();
    expect(compact(`${id.slice(0, 35)}g`)).toBeUndefined();
    expect(compact(id.slice(0, 30))).toBeUndefined();
  });

  it('are refused for a wrong character at any position (a dash where a digit goes, a digit where a dash goes)', () => {
    const id = randomUUID();
    for (let i = 0; i < id.length; i++) {
      const wrong = id[i] === '-' ? 'a' : i % 2 === 0 ? 'x' : '-';
      expect(compact(`${id.slice(0, i)}${wrong}${id.slice(i + 1)}`)).toBeUndefined();
      expect(compact(`${id.slice(0, i)}\u00e9${id.slice(i + 1)}`)).toBeUndefined();
    }
  });

  it('refuse a payload that is not 16 bytes, naming the id', () => {
    expect(() => decodeMsgpack(Uint8Array.of(0xd7, CALL_ID_EXT_TYPE, 1, 2, 3, 4, 5, 6, 7, 8))).toThrow(
      /call id \(msgpack ext 85\) carries 16 bytes, not 8/,
    );
  });
});
