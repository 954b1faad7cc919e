import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeMsgpack } from './msgpack-codec.js';
import { countMsgpackNodes } from './msgpack-nodes.js';

/** Values and map keys of a decoded value, containers once each: what the counter must find. */
function nodesOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((sum: number, item) => sum + nodesOf(item), 0);
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array))
    return 1 + Object.values(value).reduce((sum: number, member) => sum + 1 + nodesOf(member), 0);
  return 1;
}

const json = fc.jsonValue({ maxDepth: 6 });

describe('countMsgpackNodes', () => {
  it('counts every value and map key, and ends where the value ends', () => {
    fc.assert(
      fc.property(json, (value) => {
        const bytes = encodeMsgpack(value);
        expect(countMsgpackNodes(bytes, { maxNodes: Number.POSITIVE_INFINITY })).toEqual({
          status: 'within',
          nodes: nodesOf(value),
          end: bytes.byteLength,
        });
      }),
    );
  });

  it('stops at the limit without reading the rest: 20 million empty maps are refused after the first few', () => {
    // An array32 header and 20,000,000 bytes of 0x80 (an empty map each): what a node bomb sends.
    const bytes = new Uint8Array(5 + 20_000_000).fill(0x80);
    bytes.set([0xdd, 0x01, 0x31, 0x2d, 0x00], 0);
    expect(countMsgpackNodes(bytes, { maxNodes: 1_000 })).toEqual({ status: 'over', maxNodes: 1_000 });
    expect(countMsgpackNodes(bytes, { maxNodes: 20_000_001 })).toMatchObject({
      status: 'within',
      nodes: 20_000_001,
    });
  });

  it('finds bin only where binary is refused', () => {
    const bytes = encodeMsgpack({ a: [1, new Uint8Array([7, 7, 7])] });
    expect(countMsgpackNodes(bytes, { maxNodes: 100 })).toMatchObject({ status: 'within', nodes: 5 });
    expect(countMsgpackNodes(bytes, { maxNodes: 100, allowBinary: false })).toEqual({
      status: 'binary',
      offset: 5,
    });
  });

  it('calls malformed a container that declares more values than bytes remain, a byte that starts none, and a cut value', () => {
    expect(
      countMsgpackNodes(Uint8Array.of(0xdd, 0xff, 0xff, 0xff, 0xff, 0x80), { maxNodes: 10 }).status,
    ).toBe('malformed');
    expect(countMsgpackNodes(Uint8Array.of(0x91, 0xc1), { maxNodes: 10 }).status).toBe('malformed');
    expect(countMsgpackNodes(Uint8Array.of(0xa5, 0x61), { maxNodes: 10 }).status).toBe('malformed');
    expect(countMsgpackNodes(new Uint8Array(0), { maxNodes: 10 }).status).toBe('malformed');
  });
});
