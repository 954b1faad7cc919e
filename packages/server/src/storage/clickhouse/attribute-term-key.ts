import type { AttributeKind } from '../attribute-terms.js';

/**
 * One attribute term as an element of `calls.attr_terms` (and of a filter):
 * the JSON of `[key, kind, value]`, so `tier = 2` (number) and `tier = '2'`
 * (string) are different elements, and a filter matches with `has()`.
 */
export function attributeTermKey(key: string, kind: AttributeKind, value: string | number): string {
  return JSON.stringify([key, kind, value]);
}
