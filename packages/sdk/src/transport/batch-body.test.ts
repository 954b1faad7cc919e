import { callBatch, decodeMsgpack, encodeMsgpack, msgpackArrayHeader } from '@weft/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchBodyPrefix, encodeBatchBody } from './batch-body.js';

const id = (n: number) => `01890000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
const item = (n: number, extra: unknown = null) => ({
  type: 'complete',
  id: id(n),
  traceId: id(n),
  parentId: null,
  opName: 'llmCall',
  startedAt: 1_700_000_000_000 + n,
  endedAt: 1_700_000_000_100 + n,
  inputs: { n, extra },
  output: `out ${n}`,
});

describe('encodeBatchBody', () => {
  it.each([1, 15, 16, 300, 65_535, 65_536])(
    'assembles %i pre-encoded items that the server decoder reads back equal',
    (count) => {
      // Large counts use small items: the header sizes are what they exercise.
      const items: unknown[] = Array.from({ length: count }, (_, n) => (count > 300 ? n : item(n)));
      const body = encodeBatchBody(
        batchBodyPrefix('my-project'),
        items.map((value) => encodeMsgpack(value)),
      );
      const decoded = decodeMsgpack(body);
      expect(decoded).toEqual({ project: 'my-project', items });
      if (count <= 10_000) expect(callBatch.safeParse(decoded).success).toBe(true);
    },
  );

  it('is byte-identical to encoding the whole batch at once', () => {
    const items = [item(1), item(2, { nested: [1, 2, 3] })];
    const whole = encodeMsgpack({ project: 'p', items });
    const assembled = encodeBatchBody(
      batchBodyPrefix('p'),
      items.map((value) => encodeMsgpack(value)),
    );
    expect(Buffer.from(assembled).equals(Buffer.from(whole))).toBe(true);
  });

  it('round-trips arbitrary JSON-like items and project names (property)', () => {
    const project = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/);
    fc.assert(
      fc.property(project, fc.array(fc.jsonValue(), { minLength: 1, maxLength: 40 }), (name, values) => {
        const body = encodeBatchBody(
          batchBodyPrefix(name),
          values.map((value) => encodeMsgpack(value)),
        );
        // msgpack has one zero: -0 decodes as 0, as it does for a whole-body encode.
        expect(decodeMsgpack(body)).toEqual(decodeMsgpack(encodeMsgpack({ project: name, items: values })));
      }),
      { numRuns: 200 },
    );
  });

  it('writes the three array header sizes (the one header helper, from the protocol)', () => {
    expect([...msgpackArrayHeader(15)]).toEqual([0x9f]);
    expect([...msgpackArrayHeader(16)]).toEqual([0xdc, 0, 16]);
    expect([...msgpackArrayHeader(70_000)]).toEqual([0xdd, 0, 1, 0x11, 0x70]);
  });
});
