const MAX_ARRAY_LENGTH = 2 ** 32 - 1;

/**
 * An array's length as a count the walk can trust. A Proxy's `get` trap can
 * answer `length` with anything (NaN, Infinity, a string); counts derived
 * from it end up in markers, which must stay finite numbers.
 */
export function arrayLength(array: readonly unknown[]): number {
  const length: unknown = array.length;
  return typeof length === 'number' && length > 0 ? Math.min(Math.floor(length), MAX_ARRAY_LENGTH) : 0;
}
