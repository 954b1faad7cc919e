import type { ScoreValue } from '@weft/protocol';

const isScalar = (v: unknown): v is number | boolean =>
  typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * The `scoreValue` schema of @weft/protocol as a plain check — a finite
 * number, a boolean, or a plain object of them — because it runs once per
 * scorer per row and a schema parse costs more than the scorer itself.
 */
export function isScoreValue(value: unknown): value is ScoreValue {
  if (isScalar(value)) return true;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value) {
    // An own `__proto__` key cannot cross the wire: the server's schema drops
    // it (a prototype-pollution guard), so the score would silently lose it.
    if (key === '__proto__' || !isScalar((value as Record<string, unknown>)[key])) return false;
  }
  return true;
}
