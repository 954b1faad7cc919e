import { types } from 'node:util';

/**
 * The value rules every walker uses — the snapshot (on the caller's turn),
 * the one-pass safe encoder and the {@link Sanitizer} — in one place, so a
 * rule changes once. The rules, documented for users in `docs/values.md`:
 *
 * - **Plain containers** are arrays (`Array.isArray`, so also a proxy of
 *   one) and objects whose prototype is `Object.prototype` or `null`. They
 *   are walked: the snapshot copies them, the encoder writes them, the
 *   Sanitizer rebuilds them.
 * - **Keys walked**: an object's own enumerable string keys, in order
 *   (`Object.keys`). Symbol keys, non-enumerable and inherited members are
 *   left out; getters are read (a throwing one becomes an `unreadable` marker).
 * - **Map and Set** are copied by the snapshot and written as `map` / `set`
 *   markers with their entries.
 * - **Other objects** are kept by identity in the snapshot and given their
 *   safe form by the Sanitizer ({@link ObjectKind}); the safe encoder writes
 *   only plain containers and leaves the rest to the Sanitizer.
 * - **Cycles** stay cycles in the snapshot and become `cycle` markers; a
 *   container reached twice without a cycle is expanded at each place,
 *   within the node limit.
 *
 * Classifying reads internal slots (`util.types`), never the value's own
 * properties, so look-alikes and proxies of class instances are instances.
 */
export const ObjectKind = {
  /** A plain array (`Array.isArray`). */
  Array: 0,
  /** An object whose prototype is `Object.prototype` or `null`. */
  Object: 1,
  /** A Map (or subclass): a `map` marker with its entries. */
  Map: 2,
  /** A Set (or subclass): a `set` marker with its values. */
  Set: 3,
  /** Buffer, typed arrays, DataView, ArrayBuffer, SharedArrayBuffer: a `binary` marker (or `onBlob`'s ref). */
  Binary: 4,
  /** A function or class: a `function` marker with its name. */
  Function: 5,
  /** A Date: its ISO string, or an `invalid-date` marker. */
  Date: 6,
  /** A RegExp: a `regexp` marker with its literal text. */
  RegExp: 7,
  /** `new String('a')`, `Object(1n)`…: the primitive inside, by the primitive's rule. */
  Boxed: 8,
  /** A native Error (or subclass): an `error` marker (name, message, stack, cause, own fields). */
  Error: 9,
  /**
   * Anything else — class instances, Promise, WeakMap, a proxy of an
   * instance: its `toJSON()` result when it has one, else an `instance`
   * marker with its class name and own enumerable fields.
   */
  Instance: 10,
} as const;
export type ObjectKind = (typeof ObjectKind)[keyof typeof ObjectKind];

/** The class names of the plain containers, for truncation markers. */
export const CONTAINER_NAMES = ['Array', 'Object', 'Map', 'Set'] as const;

/** True for the prototype of a plain object: `Object.prototype` or `null`. */
export function isPlainPrototype(proto: unknown): boolean {
  return proto === Object.prototype || proto === null;
}

/**
 * Which kind of object `value` is. Plain containers are recognized first
 * by two cheap checks (nearly every node is one); only other objects pay for
 * the internal-slot probes.
 *
 * @throws whatever a revoked proxy throws from `Array.isArray` or
 * `Object.getPrototypeOf`: the caller decides (the snapshot keeps the value
 * by identity, the Sanitizer writes an `unreadable` marker).
 */
export function objectKind(value: object): ObjectKind {
  // typeof needs no trap, so even a revoked proxy of a function is a function
  // (and a function with a null prototype is not a plain object).
  if (typeof value === 'function') return ObjectKind.Function;
  if (Array.isArray(value)) return ObjectKind.Array;
  if (isPlainPrototype(Object.getPrototypeOf(value))) return ObjectKind.Object;
  return exoticKind(value);
}

/**
 * {@link objectKind} of an object that is neither a function nor a plain
 * container. A function of its own, so the plain checks above stay small
 * enough to be inlined into every walker's loop.
 */
function exoticKind(value: object): ObjectKind {
  if (types.isMap(value)) return ObjectKind.Map;
  if (types.isSet(value)) return ObjectKind.Set;
  if (types.isArrayBufferView(value) || types.isAnyArrayBuffer(value)) return ObjectKind.Binary;
  if (types.isDate(value)) return ObjectKind.Date;
  if (types.isRegExp(value)) return ObjectKind.RegExp;
  if (types.isBoxedPrimitive(value)) return ObjectKind.Boxed;
  if (types.isNativeError(value)) return ObjectKind.Error;
  return ObjectKind.Instance;
}

/** True for the kinds every walker walks as containers of their own (the snapshot copies them). */
export function isCopiedKind(kind: ObjectKind): boolean {
  return kind <= ObjectKind.Set;
}

/**
 * The keys of a plain object or an instance that are walked: its own
 * enumerable string keys, in order.
 */
export function walkedKeys(value: object): string[] {
  return Object.keys(value);
}

/**
 * True when `for…in` over a plain object lists exactly its walked keys:
 * nobody gave Object.prototype an enumerable member. The snapshot and the
 * encoder walk plain objects with `for…in` (V8's enum cache, no key array
 * allocated per object) only while this holds, else {@link walkedKeys}.
 */
export function forInListsWalkedKeys(): boolean {
  for (const _ in Object.prototype) return false;
  return true;
}
