import { describe, expect, it } from 'vitest';
import { attributesFromQuery, attributesToQuery, chipText, parseAttributeChip } from './attribute-filter.js';

describe('attribute chips', () => {
  it('reads booleans, numbers and strings, with quotes forcing a string', () => {
    expect(parseAttributeChip('env=prod')).toEqual(['env', 'prod']);
    expect(parseAttributeChip('tier=2')).toEqual(['tier', 2]);
    expect(parseAttributeChip('tier="2"')).toEqual(['tier', '2']);
    expect(parseAttributeChip('beta=false')).toEqual(['beta', false]);
    expect(parseAttributeChip('=x')).toBeUndefined();
    expect(parseAttributeChip('novalue')).toBeUndefined();
  });

  it('reads attrs in the chip syntax, one per parameter, and round-trips them', () => {
    const attributes = { plan: 'pro', tier: '2', beta: true, seats: 5 };
    expect(attributesToQuery(attributes)).toEqual(['plan=pro', 'tier="2"', 'beta=true', 'seats=5']);
    expect(attributesFromQuery(attributesToQuery(attributes))).toEqual({ attributes, invalid: [] });
  });

  it('still reads the JSON links of before, and reports what it cannot read', () => {
    expect(attributesFromQuery([JSON.stringify({ a: 1, b: 'x' })])).toEqual({
      attributes: { a: 1, b: 'x' },
      invalid: [],
    });
    expect(attributesFromQuery(['{broken', 'plan', 'env=prod', '{"c":{"no":1}}'])).toEqual({
      attributes: { env: 'prod' },
      invalid: ['{broken', 'plan', '{"c":{"no":1}}'],
    });
  });

  it('labels ambiguous strings with quotes', () => {
    expect(chipText('tier', '2')).toBe('tier="2"');
    expect(chipText('tier', 2)).toBe('tier=2');
  });
});
