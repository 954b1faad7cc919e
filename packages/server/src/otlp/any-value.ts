import { type OtelAttributes, type OtelAttributeValue, setOwnKey } from '@weft/protocol';

/**
 * Deepest nesting of array and kvlist values kept; deeper values become
 * {@link TOO_DEEP}, so one absurd attribute neither overflows a later
 * recursive step nor costs the span.
 */
export const MAX_VALUE_DEPTH = 32;
export const TOO_DEEP = `[weft: nested deeper than ${MAX_VALUE_DEPTH} levels]`;

type Loose = Record<string, unknown>;

/**
 * OTLP `KeyValue[]` → a flat record, reading both protobufjs' decoded
 * messages and OTLP JSON. Entries without a string key are skipped; a key
 * given twice keeps the last (as OTel SDKs do when setting an attribute).
 */
export function attributesOf(keyValues: unknown, depth = 0): OtelAttributes {
  const out: Record<string, OtelAttributeValue> = {};
  if (!Array.isArray(keyValues)) return out;
  for (const entry of keyValues) {
    const key = (entry as Loose | null)?.key;
    if (typeof key !== 'string') continue;
    setOwnKey(out, key, anyValueOf((entry as Loose).value, depth));
  }
  return out;
}

/**
 * OTLP `AnyValue` → a JS value: int64 as a number when safe, else its
 * decimal string; bytes as base64; arrays and kvlists recursively (up to
 * {@link MAX_VALUE_DEPTH}); an empty or unknown `AnyValue` as `null`.
 */
export function anyValueOf(value: unknown, depth = 0): OtelAttributeValue {
  if (value === null || typeof value !== 'object') return null;
  const v = value as Loose;
  if (has(v, 'stringValue')) return textOf(v.stringValue);
  if (has(v, 'boolValue')) return v.boolValue === true;
  if (has(v, 'intValue')) return integerOf(v.intValue);
  if (has(v, 'doubleValue')) return doubleOf(v.doubleValue);
  if (has(v, 'bytesValue')) return base64Of(v.bytesValue);
  if (has(v, 'arrayValue') || has(v, 'kvlistValue')) {
    if (depth >= MAX_VALUE_DEPTH) return TOO_DEEP;
    if (has(v, 'arrayValue')) {
      const values = (v.arrayValue as Loose | null)?.values;
      return Array.isArray(values) ? values.map((item) => anyValueOf(item, depth + 1)) : [];
    }
    return attributesOf((v.kvlistValue as Loose | null)?.values, depth + 1) as OtelAttributeValue;
  }
  return null;
}

/** Own, set fields only: protobufjs keeps defaults on the prototype. */
function has(v: Loose, key: string): boolean {
  return Object.hasOwn(v, key) && v[key] !== null && v[key] !== undefined;
}

/** An int64 (protobufjs `Long`, a JSON number or a decimal string) as a safe number or a decimal string. */
export function integerOf(value: unknown): number | string {
  // protobufjs' Long: its 32-bit halves give the number without formatting and parsing a string.
  if (isLong(value) && !value.unsigned && Math.abs(value.high) < 0x200000)
    return value.high * 0x100000000 + (value.low >>> 0);
  const text = textOf(value);
  const n = Number(text);
  if (Number.isSafeInteger(n)) return n;
  return /^-?\d+$/.test(text) ? text : Number.isFinite(n) ? n : text;
}

/** proto3 JSON spells NaN and the infinities as strings; JSON has no numbers for them, so they stay strings. */
function doubleOf(value: unknown): number | string {
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  const text = textOf(value);
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

function base64Of(value: unknown): string {
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  return textOf(value);
}

/** A protobufjs `Long`: a 64-bit integer as two 32-bit halves, signed or `unsigned`. */
export function isLong(value: unknown): value is { low: number; high: number; unsigned: boolean } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { low?: unknown }).low === 'number' &&
    typeof (value as { high?: unknown }).high === 'number' &&
    typeof (value as { unsigned?: unknown }).unsigned === 'boolean'
  );
}

/**
 * `String(value)` that never throws. OTLP JSON may put an object where a
 * scalar belongs, and one whose `toString` is not a function (`{"toString": ""}`)
 * makes `String` and `Number` throw a TypeError; such a value reads as `''`,
 * so the span is kept or rejected by its other fields, never a 500.
 */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return String(value);
  } catch {
    return '';
  }
}
