import { describe, expect, it } from 'vitest';
import { attributesFromQuery, chipText, parseAttributeChip } from './attribute-filter.js';

describe('attribute chips', () => {
  it('reads booleans, numbers and strings, with quotes forcing a string', () => {
    expect(parseAttributeChip('env=prod')).toEqual(['env', 'prod']);
    expect(parseAttributeChip('tier=2')).toEqual(['tier', 2]);
    expect(parseAttributeChip('tier="2"')).toEqual(['tier', '2']);
    expect(parseAttributeChip('beta=false')).toEqual(['beta', false]);
    expect(parseAttributeChip('=x')).toBeUndefined();
    expect(parseAttributeChip('novalue')).toBeUndefined();
  });

  it('round-trips through the URL and labels ambiguous strings with quotes', () => {
    expect(attributesFromQuery(JSON.stringify({ a: 1, b: 'x', c: { no: 1 } }))).toEqual({ a: 1, b: 'x' });
    expect(attributesFromQuery('{broken')).toEqual({});
    expect(chipText('tier', '2')).toBe('tier="2"');
    expect(chipText('tier', 2)).toBe('tier=2');
  });
});
