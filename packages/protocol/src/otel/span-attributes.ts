import type { OtelAttributes, OtelAttributeValue } from './otel-span.js';
import { setOwnKey } from '../values/index.js';

/**
 * Read access to a span's attributes that remembers which keys went into a
 * call's inputs, output or usage, so the call's `attributes` do not carry a
 * second copy of every prompt or token count. Reads of other scalar facts
 * (model, session, time to first token) do not consume: those stay visible
 * as attributes too.
 */
export class SpanAttributes {
  readonly #attributes: OtelAttributes;
  readonly #consumed = new Set<string>();

  constructor(attributes: OtelAttributes) {
    this.#attributes = attributes;
  }

  /** The value under `key`, or `undefined`. */
  get(key: string): OtelAttributeValue | undefined {
    return Object.hasOwn(this.#attributes, key) ? this.#attributes[key] : undefined;
  }

  /** The first of `keys` that holds a non-empty string. */
  string(...keys: string[]): string | undefined {
    for (const key of keys) {
      const value = this.get(key);
      if (typeof value === 'string' && value !== '') return value;
    }
    return undefined;
  }

  /** The first of `keys` that holds a finite, non-negative number (or a decimal string of one). */
  count(...keys: string[]): number | undefined {
    return this.#firstCount(keys, false);
  }

  /**
   * {@link count}, and marks the key it read consumed (its value now lives in
   * the call's `summary.usage`); a key holding no count stays an attribute.
   */
  takeCount(...keys: string[]): number | undefined {
    return this.#firstCount(keys, true);
  }

  #firstCount(keys: readonly string[], consume: boolean): number | undefined {
    for (const key of keys) {
      const value = this.get(key);
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n === 'number' && Number.isFinite(n) && n >= 0) {
        if (consume) this.#consumed.add(key);
        return n;
      }
    }
    return undefined;
  }

  /**
   * The first of `keys` that is present, with JSON strings parsed (any JSON
   * value for the keys that always hold JSON text, {@link JSON_TEXT_KEYS});
   * marks the key consumed (its value now lives in the call's inputs or output).
   */
  take(...keys: string[]): { value: unknown } | undefined {
    for (const key of keys) {
      const value = this.get(key);
      if (value === undefined || value === null || value === '') continue;
      this.#consumed.add(key);
      return { value: JSON_TEXT_KEYS.has(key) ? parseJsonText(value) : parseJsonValue(value) };
    }
    return undefined;
  }

  /**
   * Indexed flat attributes under `prefix` (`gen_ai.prompt.0.role`,
   * `gen_ai.prompt.0.content`, `gen_ai.prompt.1.role` …) rebuilt into an
   * array of objects, in index order; the keys are consumed. Only keys whose
   * next segment is an index count (`gen_ai.prompt.name` is not a message).
   * Empty when none.
   */
  takeIndexed(prefix: string): unknown[] {
    const keys = Object.keys(this.#attributes).filter(
      (key) => key.startsWith(prefix) && /^\d+(?:\.|$)/.test(key.slice(prefix.length)),
    );
    if (keys.length === 0) return [];
    const root: Tree = new Map();
    for (const key of keys) {
      const value = this.#attributes[key];
      if (value === undefined) continue;
      this.#consumed.add(key);
      insert(root, key.slice(prefix.length).split('.'), value);
    }
    const rebuilt = fromTree(root);
    return Array.isArray(rebuilt) ? rebuilt : [rebuilt];
  }

  /** Every attribute not consumed into inputs or output, `undefined` entries dropped. */
  remaining(): Record<string, OtelAttributeValue> {
    const out: Record<string, OtelAttributeValue> = {};
    for (const key of Object.keys(this.#attributes)) {
      const value = this.#attributes[key];
      if (value !== undefined && !this.#consumed.has(key)) setOwnKey(out, key, value);
    }
    return out;
  }
}

type Tree = Map<string, Tree | OtelAttributeValue>;

function insert(tree: Tree, path: string[], value: OtelAttributeValue): void {
  let node = tree;
  for (const segment of path.slice(0, -1)) {
    const next = node.get(segment);
    if (next instanceof Map) {
      node = next;
    } else {
      // A scalar at `a.b` and a child at `a.b.c`: the child wins, the scalar is kept as `value`.
      const child: Tree = new Map();
      if (next !== undefined) child.set('value', next);
      node.set(segment, child);
      node = child;
    }
  }
  const last = path.at(-1) ?? '';
  if (!(node.get(last) instanceof Map)) node.set(last, value);
}

/** A node whose keys are all indices becomes an array (dense, in index order); others plain objects. */
function fromTree(tree: Tree): unknown {
  const keys = [...tree.keys()];
  const convert = (value: Tree | OtelAttributeValue): unknown =>
    value instanceof Map ? fromTree(value) : value;
  if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((key) => convert(tree.get(key) as Tree));
  }
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    Object.defineProperty(out, key, {
      value: convert(tree.get(key) as Tree),
      enumerable: true,
      writable: true,
    });
  }
  return out;
}

/** Deeper than this, a JSON attribute is kept as the string it came as. */
const MAX_PARSED_DEPTH = 64;

/**
 * Attributes that always hold JSON text: the AI SDK writes them with
 * `JSON.stringify` of whatever the value was, so a tool that returned the
 * string `sunny` sends `"sunny"` (quotes included), and `42` a number.
 * These are parsed whatever JSON they hold, not only objects and arrays.
 */
export const JSON_TEXT_KEYS: ReadonlySet<string> = new Set([
  'ai.toolCall.args',
  'ai.toolCall.input',
  'ai.toolCall.result',
  'ai.toolCall.output',
  'ai.response.object',
  'ai.prompt',
]);

/**
 * Text that holds one JSON value (a string, a number, `null`, an object…)
 * parsed; text that is not JSON, or JSON nested deeper than
 * {@link MAX_PARSED_DEPTH}, as it is.
 */
export function parseJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return mayNestDeeperThan(value, MAX_PARSED_DEPTH) && depthExceeds(parsed, MAX_PARSED_DEPTH)
      ? value
      : parsed;
  } catch {
    return value;
  }
}

/**
 * A string that holds a JSON object or array (most conventions put messages
 * in one) parsed; anything else, or JSON nested deeper than
 * {@link MAX_PARSED_DEPTH}, as it is.
 */
export function parseJsonValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const first = value.trimStart().charAt(0);
  if (first !== '{' && first !== '[') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return mayNestDeeperThan(value, MAX_PARSED_DEPTH) && depthExceeds(parsed, MAX_PARSED_DEPTH)
      ? value
      : parsed;
  } catch {
    return value;
  }
}

/**
 * False when JSON `text` cannot nest containers deeper than `max`: it holds
 * at most `max` opening brackets (inside strings or not). Counted with
 * `indexOf`, so the common message (a few brackets) skips walking the parsed
 * value with {@link depthExceeds}, which every ingested span's messages paid.
 */
function mayNestDeeperThan(text: string, max: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++count > max) return true;
    }
  }
  return false;
}

/** True when `value` nests containers deeper than `max` (iterative: no stack to overflow). */
export function depthExceeds(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
