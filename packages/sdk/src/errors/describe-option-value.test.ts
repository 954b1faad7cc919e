import { describe, expect, it } from 'vitest';
import { describeOptionValue } from './describe-option-value.js';

describe('describeOptionValue', () => {
  it('prints what the caller passed, a Set or Map as one (not the {} JSON makes of it)', () => {
    expect(describeOptionValue(new Set(['ssn', 'email']))).toBe("Set(2) { 'ssn', 'email' }");
    expect(describeOptionValue(new Map([['a', 1]]))).toBe("Map(1) { 'a' => 1 }");
    expect(describeOptionValue('ssn')).toBe('"ssn"');
    expect(describeOptionValue(-1)).toBe('-1');
    expect(describeOptionValue(10n)).toBe('10n');
    expect(describeOptionValue(undefined)).toBe('undefined');
    expect(describeOptionValue(null)).toBe('null');
    expect(describeOptionValue(['a', 1])).toBe("[ 'a', 1 ]");
    expect(describeOptionValue({ a: { b: 1 } })).toBe('{ a: { b: 1 } }');
    expect(describeOptionValue(function redact() {})).toBe('a function (redact)');
    expect(describeOptionValue(new (class Keys {})())).toBe('Keys {}');
  });

  it('cuts a long value, and never throws on a hostile one', () => {
    expect(describeOptionValue('x'.repeat(500))).toHaveLength(120);
    expect(describeOptionValue(Array.from({ length: 500 }, (_, i) => i)).length).toBeLessThanOrEqual(120);
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trap');
        },
      },
    );
    expect(typeof describeOptionValue(hostile)).toBe('string');
  });
});
