import { decodeMsgpack, encodeMsgpack } from '@weft/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeIfSafe, releaseEncoded } from './safe-encoder.js';
import { sanitize } from './sanitize.js';
import { snapshot, snapshotTape } from './snapshot.js';
import { materialize } from './snapshot-tape.js';

const safe = (value: unknown, options?: Parameters<typeof encodeIfSafe>[1], budget?: number) =>
  encodeIfSafe(value, options, budget) !== undefined;

describe('encodeIfSafe', () => {
  it('encodes only what the Sanitizer would leave as is, and decodes to the same value as the wire encoder', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.anything({
            withBigInt: true,
            withMap: true,
            withSet: true,
            withTypedArray: true,
            withDate: true,
            withNullPrototype: true,
            withSparseArray: true,
          }),
        ),
        (value) => {
          const copy = snapshot(value);
          const bytes = encodeIfSafe(copy);
          if (bytes === undefined) return;
          const expected = decodeMsgpack(encodeMsgpack(sanitize(copy).value));
          expect(decodeMsgpack(bytes)).toEqual(expected);
          expect(decodeMsgpack(bytes)).toEqual(decodeMsgpack(encodeMsgpack(copy)));
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('encodes a snapshot tape exactly as the containers it holds, and refuses the same values', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.anything({
            withBigInt: true,
            withMap: true,
            withSet: true,
            withTypedArray: true,
            withDate: true,
            withNullPrototype: true,
            withSparseArray: true,
          }),
        ),
        fc.integer({ min: 3, max: 400 }),
        (value, budget) => {
          const tape = snapshotTape({ inputs: { value }, output: [value] });
          const fromTape = encodeIfSafe(tape, undefined, budget);
          const fromContainers = encodeIfSafe(materialize(tape), undefined, budget);
          expect(fromTape === undefined).toBe(fromContainers === undefined);
          if (fromTape !== undefined)
            expect(decodeMsgpack(fromTape)).toEqual(decodeMsgpack(fromContainers as Uint8Array));
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('encodes tapes nested in a record, and refuses what a tape keeps by identity', () => {
    const record = {
      type: 'complete',
      inputs: snapshotTape({ msgs: [{ role: 'user', content: 'hi' }], n: undefined }),
      output: snapshotTape({ ok: true, list: [1, 2.5, null] }),
    };
    expect(decodeMsgpack(encodeIfSafe(record) as Uint8Array)).toEqual({
      type: 'complete',
      inputs: { msgs: [{ role: 'user', content: 'hi' }] },
      output: { ok: true, list: [1, 2.5, null] },
    });
    for (const kept of [new Date(0), new Map([[1, 2]]), new Set([1]), Symbol('s'), 1n, () => 1]) {
      expect(encodeIfSafe({ output: snapshotTape({ kept }) }), String(typeof kept)).toBeUndefined();
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(encodeIfSafe({ output: snapshotTape(cyclic) })).toBeUndefined();
  });

  it('writes every msgpack form the wire encoder reads back: integer widths, floats, string and container sizes', () => {
    const numbers = [
      0,
      1,
      127,
      128,
      255,
      256,
      65_535,
      65_536,
      2 ** 32 - 1,
      2 ** 32,
      2 ** 53 - 1,
      -1,
      -32,
      -33,
      -128,
      -129,
      -32_768,
      -32_769,
      -(2 ** 31),
      -(2 ** 31) - 1,
      -(2 ** 53) + 1,
      0.5,
      -1.25,
      1e300,
      5e-324,
      Number.MAX_VALUE,
    ];
    const strings = [
      '',
      'a',
      'x'.repeat(31),
      'x'.repeat(32),
      'é'.repeat(10),
      'é'.repeat(100),
      '😀'.repeat(20),
      'y'.repeat(300),
      'z'.repeat(70_000),
      `${'a'.repeat(30)}é`,
    ];
    const value = {
      numbers,
      strings,
      small: Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`k${i}`, i])),
      wide: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, i])),
      wider: Object.fromEntries(Array.from({ length: 70_000 }, (_, i) => [`k${i}`, true])),
      arrays: [Array(15).fill(null), Array(16).fill(false), Array(70_000).fill(1)],
      [`key-é-${'k'.repeat(40)}`]: 'non-ASCII and long keys',
    };
    const bytes = encodeIfSafe(value, { maxArrayLength: 100_000, maxNodes: 1_000_000 });
    expect(bytes).toBeDefined();
    expect(decodeMsgpack(bytes as Uint8Array)).toEqual(value);
  });

  it('leaves out undefined members, in small and large maps, like the wire encoder', () => {
    const small = { a: 1, b: undefined, c: 'x' };
    const large = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`k${i}`, i % 3 === 0 ? undefined : i]),
    );
    for (const value of [small, large, { nested: small, list: [large] }]) {
      expect(decodeMsgpack(encodeIfSafe(value) as Uint8Array)).toEqual(decodeMsgpack(encodeMsgpack(value)));
    }
  });

  it('keeps earlier results intact when a record spills into a new arena', () => {
    const big = { text: 'b'.repeat(700_000) };
    const results = Array.from(
      { length: 6 },
      (_, i) => [{ i, ...big }, encodeIfSafe({ i, ...big }) as Uint8Array] as const,
    );
    for (const [value, bytes] of results) expect(decodeMsgpack(bytes)).toEqual(value);
  });

  it('reuses an arena once all its records are given back, and never memory a record still holds', () => {
    const big = (i: number) => ({ i, text: `${i}`.padEnd(200_000, 'x') });
    // Fill a few arenas; keep one record of the first arena, give the others back as they are "sent".
    const kept = encodeIfSafe(big(-1)) as Uint8Array;
    const firstArena = kept.buffer;
    const given: Uint8Array[] = [];
    for (let i = 0; i < 60; i++) given.push(encodeIfSafe(big(i)) as Uint8Array);
    const arenasUsed = new Set(given.map((b) => b.buffer));
    expect(arenasUsed.size).toBeGreaterThanOrEqual(3);
    for (const bytes of given) releaseEncoded(bytes);
    const later = Array.from({ length: 60 }, (_, i) => encodeIfSafe(big(1_000 + i)) as Uint8Array);
    // Released arenas are written again; the one holding `kept` is not.
    expect(later.some((b) => arenasUsed.has(b.buffer) && b.buffer !== firstArena)).toBe(true);
    expect(later.every((b) => b.buffer !== firstArena || b.byteOffset > kept.byteOffset)).toBe(true);
    expect(decodeMsgpack(kept)).toEqual(big(-1));
    for (const [i, bytes] of later.entries()) expect(decodeMsgpack(bytes)).toEqual(big(1_000 + i));
    releaseEncoded(kept);
    for (const bytes of later) releaseEncoded(bytes);
    releaseEncoded(encodeMsgpack({ not: 'from an arena' })); // ignored
  });

  it('leaves no partial bytes behind when it refuses a value', () => {
    const before = encodeIfSafe({ a: 1 }) as Uint8Array;
    expect(encodeIfSafe({ a: 'x'.repeat(100), b: new Map() })).toBeUndefined();
    const after = encodeIfSafe({ b: 2 }) as Uint8Array;
    expect(decodeMsgpack(before)).toEqual({ a: 1 });
    expect(decodeMsgpack(after)).toEqual({ b: 2 });
  });

  it('accepts the plain JSON-like snapshot of an LLM reply', () => {
    const reply = {
      id: 'c1',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hi', tool_calls: [] } }],
      usage: { total_tokens: 3 },
      skipped: undefined,
    };
    expect(safe(snapshot({ msgs: [{ role: 'user', content: 'x' }], reply }))).toBe(true);
  });

  it('refuses what the Sanitizer changes', () => {
    const long = 'x'.repeat(20);
    const cases: [string, unknown, Parameters<typeof encodeIfSafe>[1]?][] = [
      ['a redacted key', { api_key: 'k' }],
      ['a redacted key whose value is undefined', { Token: undefined }],
      ['a lone surrogate', { s: '\ud800' }],
      ['a lone surrogate in a long string', { s: `${'a'.repeat(40)}\udbff` }],
      ['a lone surrogate in a key', { '\udc00': 1 }],
      ['a lone surrogate in the key of an undefined member', { '\udc00': undefined }],
      ['-0', [-0]],
      ['NaN', { n: Number.NaN }],
      ['Infinity', [Number.POSITIVE_INFINITY]],
      ['an undefined array item', [undefined]],
      ['a bigint', [1n]],
      ['a Map', { m: new Map() }],
      ['a Date', [new Date(0)]],
      ['a class instance', [new (class A {})()]],
      ['a Buffer', [Buffer.from('x')]],
      ['a function', [() => 1]],
      ['a symbol', [Symbol('s')]],
      ['a __proto__ key', JSON.parse('{"__proto__": 1}')],
      ['a long string', [long], { maxStringLength: 10 }],
      ['a long key', { [long]: 1 }, { maxStringLength: 10 }],
      ['a long array', [1, 2, 3], { maxArrayLength: 2 }],
      ['too deep', [[[[1]]]], { maxDepth: 3 }],
      ['too many nodes', [1, 2, 3, 4, 5], { maxNodes: 4 }],
      [
        'a cycle',
        (() => {
          const a: unknown[] = [];
          a.push(a);
          return a;
        })(),
      ],
      ['a redact function', { a: 1 }, { redact: () => false }],
      [
        'a value onObject replaces',
        { a: { b: 1 } },
        { onObject: (v) => ('b' in v ? 'weft:///p/object/x:y' : undefined) },
      ],
      [
        'an onObject that throws',
        { a: 1 },
        {
          onObject: () => {
            throw new Error('no');
          },
        },
      ],
    ];
    for (const [what, value, options] of cases) expect(safe(value, options), what).toBe(false);
  });

  it('refuses everything while Object.prototype has an enumerable member (for…in would list it)', () => {
    (Object.prototype as Record<string, unknown>).polluted = 'inherited';
    try {
      expect(encodeIfSafe({ a: 1 })).toBeUndefined();
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    expect(encodeIfSafe({ a: 1 })).toBeDefined();
  });

  it('gives up past its budget so large values take the sliced walk', () => {
    const value = Array.from({ length: 100 }, (_, i) => i);
    expect(safe(value, undefined, 50)).toBe(false);
    expect(safe(value, undefined, 500)).toBe(true);
  });
});
