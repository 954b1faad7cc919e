import { types } from 'node:util';
import { functionName } from './class-name.js';
import { MARKER_KEY, type Marker, truncatedString } from './markers.js';
import { head, wellFormed } from './well-formed.js';

// Leaves whose safe form is a marker with no children to walk. Each reads
// internal slots through intrinsic methods, never through the value's own
// (possibly overridden) properties.

const symbolDescription = Object.getOwnPropertyDescriptor(Symbol.prototype, 'description')?.get as (
  this: symbol,
) => string | undefined;

/** `NaN`, `Infinity`, `-Infinity` (JSON has none of them). */
export function nonFiniteNumber(value: number): Marker {
  return { [MARKER_KEY]: 'number', value: String(value) };
}

/** A bigint, in decimal. */
export function bigintForm(value: bigint): Marker {
  return { [MARKER_KEY]: 'bigint', value: value.toString() };
}

/** A symbol, with its description when it has one. */
export function symbolForm(value: symbol): Marker {
  const description = symbolDescription.call(value);
  return description === undefined ? { [MARKER_KEY]: 'symbol' } : { [MARKER_KEY]: 'symbol', description };
}

/** A function (or class), by name; '' when anonymous. */
export function functionForm(value: object): Marker {
  return { [MARKER_KEY]: 'function', name: functionName(value) };
}

/** A valid Date as its ISO string; an invalid one as a marker. */
export function dateForm(value: object): string | Marker {
  const time = Date.prototype.getTime.call(value as Date);
  return Number.isNaN(time)
    ? { [MARKER_KEY]: 'invalid-date' }
    : Date.prototype.toISOString.call(value as Date);
}

/** A RegExp as its literal text, `/a+/gi`. */
export function regexpForm(value: object): Marker {
  return { [MARKER_KEY]: 'regexp', value: RegExp.prototype.toString.call(value as RegExp) };
}

/** The primitive inside a boxed primitive (`new String('a')`, `Object(1n)`…). */
export function unbox(value: object): string | number | boolean | bigint | symbol {
  if (types.isStringObject(value)) return String.prototype.valueOf.call(value);
  if (types.isNumberObject(value)) return Number.prototype.valueOf.call(value);
  if (types.isBooleanObject(value)) return Boolean.prototype.valueOf.call(value);
  if (types.isBigIntObject(value)) return BigInt.prototype.valueOf.call(value);
  return Symbol.prototype.valueOf.call(value);
}

/** A string within `max` characters (longer: a truncation marker with its head), made well-formed. */
export function limitedString(value: string, max: number): unknown {
  return value.length > max ? truncatedString(value.length, head(value, max)) : wellFormed(value);
}

/** Strings inside leaf markers (a symbol's description, a huge bigint) obey the string limit too. */
export function limitedLeaf(marker: Marker, max: number): Marker {
  for (const key of Object.keys(marker)) {
    const member = marker[key];
    if (key !== MARKER_KEY && typeof member === 'string') marker[key] = limitedString(member, max);
  }
  return marker;
}
