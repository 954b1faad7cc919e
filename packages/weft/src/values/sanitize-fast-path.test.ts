import { encodeMsgpack } from '@weft/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitize } from './sanitize.js';
import { alreadySafe } from './sanitize-fast-path.js';
import { snapshot } from './snapshot.js';

describe('alreadySafe', () => {
  it('is true only when the Sanitizer would give the same bytes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.anything({ withBigInt: true, withMap: true, withSet: true, withTypedArray: true, withDate: true, withNullPrototype: true, withSparseArray: true }),
        ),
        (value) => {
          const copy = snapshot(value);
          if (!alreadySafe(copy)) return;
          expect(encodeMsgpack(copy)).toEqual(encodeMsgpack(sanitize(copy).value));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('accepts the plain JSON-like snapshot of an LLM reply', () => {
    const reply = { id: 'c1', choices: [{ index: 0, message: { role: 'assistant', content: 'hi', tool_calls: [] } }], usage: { total_tokens: 3 }, skipped: undefined };
    expect(alreadySafe(snapshot({ msgs: [{ role: 'user', content: 'x' }], reply }))).toBe(true);
  });

  it('refuses what the Sanitizer changes', () => {
    const long = 'x'.repeat(20);
    const cases: [string, unknown, Parameters<typeof alreadySafe>[1]?][] = [
      ['a redacted key', { api_key: 'k' }],
      ['a lone surrogate', { s: '\ud800' }],
      ['a lone surrogate in a key', { '\udc00': 1 }],
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
      ['a long string', [long], { maxStringLength: 10 }],
      ['a long key', { [long]: 1 }, { maxStringLength: 10 }],
      ['a long array', [1, 2, 3], { maxArrayLength: 2 }],
      ['too deep', [[[[1]]]], { maxDepth: 3 }],
      ['too many nodes', [1, 2, 3, 4, 5], { maxNodes: 4 }],
      ['a cycle', (() => { const a: unknown[] = []; a.push(a); return a; })()],
      ['a redact function', { a: 1 }, { redact: () => false }],
      ['a value onObject replaces', { a: { b: 1 } }, { onObject: (v) => ('b' in v ? 'weft:///p/object/x:y' : undefined) }],
      ['an onObject that throws', { a: 1 }, { onObject: () => { throw new Error('no'); } }],
    ];
    for (const [what, value, options] of cases) expect(alreadySafe(value, options), what).toBe(false);
  });

  it('gives up past its budget so large values take the sliced walk', () => {
    const value = Array.from({ length: 100 }, (_, i) => i);
    expect(alreadySafe(value, undefined, 50)).toBe(false);
    expect(alreadySafe(value, undefined, 500)).toBe(true);
  });
});
