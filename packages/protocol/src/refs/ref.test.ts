import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WeftError } from '../errors/weft-error.js';
import { formatRef, isRefUri, parseRef, type Ref, tryParseRef } from './ref.js';

const nameChar = fc.constantFrom(...'abcXYZ019._-'.split(''));
const alnum = fc.constantFrom(...'abcXYZ019'.split(''));
const name = (max: number) =>
  fc.tuple(alnum, fc.array(nameChar, { maxLength: max - 1 })).map(([h, t]) => h + t.join(''));
const digestArb = fc
  .array(fc.constantFrom(...'ABCabc0123456789_-'.split('')), { minLength: 43, maxLength: 43 })
  .map((c) => c.join(''));
const pathArb = fc.array(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 4 });

const refArb: fc.Arbitrary<Ref> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('object' as const, 'op' as const),
    project: name(128),
    name: name(256),
    digest: digestArb,
    path: pathArb,
  }),
  fc.record({ kind: fc.constant('table' as const), project: name(128), digest: digestArb, path: pathArb }),
  fc.record({ kind: fc.constant('file' as const), project: name(128), digest: digestArb, path: pathArb }),
  fc.record({ kind: fc.constant('call' as const), project: name(128), id: fc.uuid(), path: pathArb }),
);

describe('ref URIs', () => {
  it('round-trip through format and parse for every kind and path', () => {
    fc.assert(
      fc.property(refArb, (ref) => {
        const text = formatRef(ref);
        expect(text.startsWith('weft:///')).toBe(true);
        expect(parseRef(text)).toEqual(ref);
        expect(formatRef(parseRef(text))).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('formats the documented shapes', () => {
    const d = 'a'.repeat(43);
    expect(formatRef({ kind: 'object', project: 'p', name: 'Prompt', digest: d, path: [] })).toBe(
      `weft:///p/object/Prompt:${d}`,
    );
    expect(formatRef({ kind: 'table', project: 'p', digest: d, path: ['row', d] })).toBe(
      `weft:///p/table/${d}/row/${d}`,
    );
    expect(formatRef({ kind: 'file', project: 'p', digest: d, path: [] })).toBe(`weft:///p/file/${d}`);
    expect(formatRef({ kind: 'object', project: 'p', name: 'x', digest: d, path: ['a b', '0'] })).toBe(
      `weft:///p/object/x:${d}/a%20b/0`,
    );
  });

  it.each([
    ['not a weft uri', 'http://x/p/object/a:b'],
    ['missing kind', 'weft:///p'],
    ['unknown kind', `weft:///p/thing/${'a'.repeat(43)}`],
    ['bad project', `weft:///-p/table/${'a'.repeat(43)}`],
    ['short digest', 'weft:///p/table/abc'],
    ['short file digest', 'weft:///p/file/abc'],
    ['object without digest', 'weft:///p/object/name'],
    ['bad call id', 'weft:///p/call/123'],
    ['empty path segment', `weft:///p/table/${'a'.repeat(43)}//x`],
    ['bad percent-encoding', `weft:///p/table/${'a'.repeat(43)}/%E0%A4%A`],
  ])('rejects %s with WEFT_INVALID_REF', (_label, text) => {
    let error: unknown;
    try {
      parseRef(text);
    } catch (e) {
      error = e;
    }
    expect(WeftError.isInstance(error)).toBe(true);
    expect((error as WeftError).code).toBe('WEFT_INVALID_REF');
    expect(isRefUri(text)).toBe(false);
    expect(tryParseRef(text)).toBeUndefined();
  });

  it('tryParseRef gives what parseRef gives for a well-formed ref, undefined for anything else', () => {
    const text = `weft:///p/object/ab:${'a'.repeat(43)}/x%2Fy`;
    expect(tryParseRef(text)).toEqual(parseRef(text));
    for (const value of [undefined, 42, 'http://example.com', 'weft:///p/blob/x'])
      expect(tryParseRef(value)).toBeUndefined();
  });

  it('refuses to format a ref it could not parse back', () => {
    expect(() => formatRef({ kind: 'table', project: 'p', digest: 'short', path: [] })).toThrow(
      expect.objectContaining({ code: 'WEFT_INVALID_REF' }),
    );
  });
});
