import { head } from './well-formed.js';

/** Longer class names are cut: a name is a label, not data. */
const MAX_NAME_LENGTH = 200;

/**
 * The name of `value`'s class, read through property descriptors so that no
 * getter or `constructor` trick runs; 'Object' when there is none to read.
 */
export function className(value: object): string {
  try {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto === null || typeof proto !== 'object') return 'Object';
    const ctor = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value;
    if (typeof ctor === 'function') {
      const name = functionName(ctor);
      // A name set with defineProperty can hold anything, lone surrogates included.
      if (name !== '') return head(name, MAX_NAME_LENGTH);
    }
  } catch {
    // A proxy trap threw: the name is unknowable, the fallback is honest enough.
  }
  return 'Object';
}

/** A function's own `name` when it is a data property holding a string, else ''. */
export function functionName(fn: object): string {
  try {
    const name = Object.getOwnPropertyDescriptor(fn, 'name')?.value;
    return typeof name === 'string' ? name : '';
  } catch {
    return '';
  }
}
