import { canonicalJson, decodeMsgpack, encodeMsgpack } from '@weft/protocol';
import { expect } from 'vitest';

/**
 * Asserts that `value` is JSON-like (null, booleans, finite numbers other
 * than -0, well-formed strings, arrays, objects with Object.prototype and
 * own enumerable string keys only) and that it survives canonicalJson, a JSON
 * round trip and a msgpack round trip unchanged.
 */
export function expectWireSafe(value: unknown): void {
  const problem = findNonJson(value);
  expect(problem, `not JSON-like at ${problem}`).toBeUndefined();
  // Canonical text is a faithful, key-order-free image of a JSON-like value,
  // so equal text means equal values (deep-equality helpers are confused by
  // data keys such as `constructor`).
  const text = canonicalJson(value);
  const parsed: unknown = JSON.parse(text);
  expect(findNonJson(parsed)).toBeUndefined();
  expect(canonicalJson(parsed)).toBe(text);
  // Everything comes back as is, an own `__proto__` key included.
  const decoded = decodeMsgpack(encodeMsgpack(value));
  expect(findNonJson(decoded)).toBeUndefined();
  expect(canonicalJson(decoded)).toBe(text);
}

/** Asserts two JSON-like values are equal, through their canonical text. */
export function expectSameJson(actual: unknown, expected: unknown): void {
  expect(canonicalJson(actual)).toBe(canonicalJson(expected));
}

function findNonJson(root: unknown): string | undefined {
  const stack: [unknown, string][] = [[root, '$']];
  const open = new Set<object>();
  while (stack.length > 0) {
    const [value, at] = stack.pop() as [unknown, string];
    switch (typeof value) {
      case 'boolean':
        continue;
      case 'string':
        if (!(value as string & { isWellFormed(): boolean }).isWellFormed()) return `${at} (lone surrogate)`;
        continue;
      case 'number':
        if (!Number.isFinite(value) || Object.is(value, -0)) return `${at} (${value})`;
        continue;
      case 'object':
        if (value === null) continue;
        break;
      default:
        return `${at} (${typeof value})`;
    }
    const object = value as object;
    if (Array.isArray(object)) {
      for (let i = 0; i < object.length; i++) {
        if (!(i in object)) return `${at}[${i}] (hole)`;
        stack.push([object[i], `${at}[${i}]`]);
      }
    } else {
      if (Object.getPrototypeOf(object) !== Object.prototype) return `${at} (prototype)`;
      if (Object.getOwnPropertySymbols(object).length > 0) return `${at} (symbol key)`;
      for (const key of Object.getOwnPropertyNames(object)) {
        const descriptor = Object.getOwnPropertyDescriptor(object, key) as PropertyDescriptor;
        if (!descriptor.enumerable || !('value' in descriptor)) return `${at}.${key} (not a data member)`;
        if (descriptor.value === undefined) return `${at}.${key} (undefined)`;
        stack.push([descriptor.value, `${at}.${key}`]);
      }
    }
    if (open.size > 1_000_000) return 'too many nodes';
    open.add(object);
  }
  return undefined;
}
