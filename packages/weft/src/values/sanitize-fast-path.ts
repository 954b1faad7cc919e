import { resolveSanitizeOptions, type ResolvedSanitizeOptions, type SanitizeOptions } from './sanitize-options.js';

/**
 * True when `value` is already exactly what the {@link Sanitizer} would make
 * of it, so it can be encoded as it is instead of being walked into a second
 * copy. That is the common case of a call's structural snapshot: plain
 * objects and arrays of well-formed strings, finite numbers, booleans and
 * null, within every limit, with no redacted key and no value a hook
 * replaces. The check only reads (no allocation per node); any doubt answers
 * false and the Sanitizer runs as usual.
 *
 * Answers false when `value` holds anything else: class instances (and the
 * snapshot's own markers), Map, Set, binary data, functions, symbols,
 * bigints, `undefined` array items, -0, NaN, ±Infinity, lone surrogates,
 * strings or keys over `maxStringLength`, containers over `maxArrayLength`,
 * depth or node counts at the limits, a key the default rules redact, a
 * `__proto__` key — and always when a `redact` function is set (it must be
 * asked exactly once per key, by the Sanitizer).
 *
 * `onObject` is asked about each plain container, as the Sanitizer would ask
 * it; any answer other than `undefined` makes the value not safe, so the
 * hook must be a pure lookup for plain containers (the client's is: a
 * published value's ref; saves happen only for class instances, which never
 * reach the hook here). A hook that throws also answers false. Repeated
 * containers (shared or cyclic) are expanded like the encoder does, bounded
 * by the node and depth limits.
 *
 * `budget` bounds the check's work (nodes): past it, it answers false, so a
 * large value goes to the Sanitizer, whose walk is sliced.
 *
 * @throws InvalidSanitizeOptionsError (code `WEFT_INVALID_OPTIONS`) when `options` are invalid.
 */
export function alreadySafe(value: unknown, options?: SanitizeOptions, budget = Number.POSITIVE_INFINITY): boolean {
  const o = resolveSanitizeOptions(options);
  if (o.redact !== undefined) return false;
  const state: CheckState = { o, nodes: 0, maxNodes: Math.min(o.maxNodes, budget) };
  try {
    return safe(state, value, 0, false); // an undefined root becomes null
  } catch {
    // A proxy trap or a hook threw: let the Sanitizer handle and report it.
    return false;
  }
}

interface CheckState {
  readonly o: ResolvedSanitizeOptions;
  nodes: number;
  /** The smaller of the `maxNodes` limit and the budget. */
  readonly maxNodes: number;
}

// `isWellFormed` is ES2024 (Node 20 has it); the repo's lib is ES2023.
type Es2024String = string & { isWellFormed(): boolean };

function safeString(o: ResolvedSanitizeOptions, s: string): boolean {
  return s.length <= o.maxStringLength && (s as Es2024String).isWellFormed();
}

/** `member`: an object member, where `undefined` is left out (as the encoder does); an array item must not be undefined. */
function safe(state: CheckState, v: unknown, depth: number, member: boolean): boolean {
  if (++state.nodes >= state.maxNodes) return false;
  switch (typeof v) {
    case 'string':
      return safeString(state.o, v);
    case 'number':
      return Number.isFinite(v) && !(v === 0 && 1 / v < 0);
    case 'boolean':
      return true;
    case 'undefined':
      return member;
    case 'object':
      return v === null || safeContainer(state, v, depth);
    default:
      return false;
  }
}

function safeContainer(state: CheckState, v: object, depth: number): boolean {
  const o = state.o;
  if (depth >= o.maxDepth) return false;
  if (Array.isArray(v)) {
    if (o.onObject !== undefined && o.onObject(v) !== undefined) return false;
    const n = v.length;
    if (n > o.maxArrayLength) return false;
    for (let i = 0; i < n; i++) if (!safe(state, v[i], depth + 1, false)) return false;
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  if (o.onObject !== undefined && o.onObject(v) !== undefined) return false;
  const keys = Object.keys(v);
  const n = keys.length;
  if (n > o.maxArrayLength) return false;
  for (let i = 0; i < n; i++) {
    const key = keys[i] as string;
    if (key === '__proto__' || !safeString(o, key) || o.isRedactedKey(key)) return false;
    if (!safe(state, (v as Record<string, unknown>)[key], depth + 1, true)) return false;
  }
  return true;
}
