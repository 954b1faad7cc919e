const BRAND = Symbol.for('weft.object');

/**
 * Base class of values saved as their own versioned objects. An instance found
 * in a call's inputs or output is saved under its `name` (when it sets one)
 * or its class name, and the call records its ref; equal contents give the
 * same version. Its value is its own enumerable fields, read off the caller's
 * turn (see docs/tracing.md, "Objects").
 *
 * @example
 * class Prompt extends weft.WeftObject { constructor(public template: string) { super(); } }
 */
export class WeftObject {
  declare name?: string;

  /** True for any `WeftObject`, whichever copy of the package created it. */
  static isInstance(value: unknown): value is WeftObject {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

// On the prototype, not the instance: an instance's own fields are its value.
Object.defineProperty(WeftObject.prototype, BRAND, { value: true });

const INVALID = /[^A-Za-z0-9._-]+/g;

/** The object name of an instance: its `name` field when it is a string, else its class name, made a valid object name. */
export function objectNameOf(value: object): string {
  let raw: unknown;
  try {
    raw = (value as { name?: unknown }).name;
    if (typeof raw !== 'string' || raw.length === 0)
      raw = (value as { constructor?: { name?: unknown } }).constructor?.name;
  } catch {
    raw = undefined;
  }
  return toObjectName(typeof raw === 'string' ? raw : '');
}

/** Makes `raw` a valid object name (`[A-Za-z0-9][A-Za-z0-9._-]{0,255}`), `object` when nothing is left. */
export function toObjectName(raw: string): string {
  const cleaned = raw
    .replace(INVALID, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 256);
  return cleaned.length > 0 ? cleaned : 'object';
}
