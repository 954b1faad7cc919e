import { inspect } from 'node:util';

/** Longest description of a value an option error prints. */
const MAX_CHARS = 120;

/**
 * A value as an option error prints it after "got": what the caller passed,
 * recognisable at a glance and short. Strings are quoted, functions named
 * as such; a `Set` or `Map` shows as one (`Set(2) { 'ssn', 'email' }`, not
 * the `{}` JSON makes of it), class instances with their class; anything
 * longer is cut with `…`. Never throws (a Proxy or a throwing getter gives
 * its type instead).
 */
export function describeOptionValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(cut(value, MAX_CHARS - 2));
  if (typeof value === 'function') return value.name ? `a function (${value.name})` : 'a function';
  try {
    return cut(
      inspect(value, {
        depth: 2,
        breakLength: Number.POSITIVE_INFINITY,
        maxArrayLength: 10,
        maxStringLength: 40,
      }),
      MAX_CHARS,
    );
  } catch {
    return typeof value;
  }
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
