import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { attributesOf, integerOf } from './any-value.js';

const Long = protobuf.util.Long as unknown as {
  fromString(text: string, unsigned?: boolean): { toString(): string };
};

describe('integerOf', () => {
  it('reads a protobufjs Long from its halves exactly as from its decimal text', () => {
    const samples = [
      '0',
      '1',
      '-1',
      '120',
      '-4294967296',
      '4294967297',
      '9007199254740991',
      '-9007199254740991',
    ];
    for (const text of [...samples, '9007199254740992', '-9007199254740993', '9223372036854775807']) {
      const long = Long.fromString(text);
      expect(integerOf(long)).toEqual(integerOf(long.toString()));
    }
    expect(integerOf(Long.fromString('-4294967296'))).toBe(-4294967296);
    expect(integerOf(Long.fromString('9007199254740991'))).toBe(Number.MAX_SAFE_INTEGER);
    // Past 2^53 the exact decimal string is kept.
    expect(integerOf(Long.fromString('9223372036854775807'))).toBe('9223372036854775807');
    expect(integerOf(Long.fromString('18446744073709551615', true))).toBe('18446744073709551615');
  });
});

describe('attributesOf', () => {
  it('keeps a `__proto__` key as a plain own key and never changes the prototype', () => {
    const out = attributesOf([
      { key: '__proto__', value: { stringValue: 'x' } },
      { key: 'a', value: { intValue: 1 } },
    ]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'a']);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toBe('x');
  });
});
