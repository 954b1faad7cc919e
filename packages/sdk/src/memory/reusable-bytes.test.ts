import { decodeMsgpack, encodeMsgpack } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { batchBodyPrefix, encodeBatchBody } from '../transport/batch-body.js';
import { ReusableBytes } from './reusable-bytes.js';

describe('ReusableBytes', () => {
  const prefix = batchBodyPrefix('p');
  const items = [encodeMsgpack({ type: 'end', id: 'a' }), encodeMsgpack({ type: 'end', id: 'b' })];

  it('assembles the same batch body into reused memory as into new memory', () => {
    const memory = new ReusableBytes(2, 1 << 20);
    const first = encodeBatchBody(prefix, items, memory.take);
    expect(first).toEqual(encodeBatchBody(prefix, items));
    memory.release(first);
    const second = encodeBatchBody(prefix, items.slice(0, 1), memory.take);
    expect(second.buffer).toBe(first.buffer);
    expect(decodeMsgpack(second)).toEqual({ project: 'p', items: [{ type: 'end', id: 'a' }] });
  });

  it('reuses only what was released, only when it is large enough, and keeps at most `keep` buffers', () => {
    const memory = new ReusableBytes(1, 1 << 20);
    const small = memory.take(10);
    const large = memory.take(1_000);
    expect(memory.take(10).buffer).not.toBe(small.buffer); // nothing released yet
    memory.release(small);
    memory.release(large); // over `keep`: left to the garbage collector
    expect(memory.take(100).buffer).not.toBe(small.buffer); // too small for 100 bytes
    expect(memory.take(10).buffer).toBe(small.buffer);
    expect(memory.take(10).buffer).not.toBe(large.buffer);
  });

  it('does not hold a buffer larger than maxBytes', () => {
    const memory = new ReusableBytes(4, 100);
    const huge = memory.take(1_000);
    memory.release(huge);
    expect(memory.take(1_000).buffer).not.toBe(huge.buffer);
  });
});
