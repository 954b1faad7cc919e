import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countMsgpackNodes, encodeMsgpack } from '../msgpack/index.js';
import { countJsonNodes } from './json-nodes.js';

const utf8 = (text: string) => Buffer.from(text, 'utf8');

describe('countJsonNodes', () => {
  it('counts what countMsgpackNodes counts for the same value, whatever the strings hold', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const msgpack = countMsgpackNodes(encodeMsgpack(value), { maxNodes: Number.POSITIVE_INFINITY });
        expect(msgpack.status).toBe('within');
        const nodes = msgpack.status === 'within' ? msgpack.nodes : -1;
        expect(countJsonNodes(utf8(text), { maxNodes: Number.POSITIVE_INFINITY })).toEqual({
          status: 'within',
          nodes,
        });
      }),
    );
  });

  it('skips quotes, brackets and backslashes inside strings', () => {
    const text = JSON.stringify({ 'k"[{': 'a\\"b{[,:"\\\\', n: [-1.5e3, true, null] });
    expect(countJsonNodes(utf8(text), { maxNodes: 100 })).toEqual({ status: 'within', nodes: 8 });
  });

  it('stops at the limit: 20 million empty objects are refused after the first thousand', () => {
    const text = Buffer.alloc(2 + 3 * 20_000_000 - 1, '{},');
    text[0] = 0x5b;
    text[text.length - 1] = 0x5d;
    expect(countJsonNodes(text, { maxNodes: 1_000 })).toEqual({ status: 'over', maxNodes: 1_000 });
  });
});
