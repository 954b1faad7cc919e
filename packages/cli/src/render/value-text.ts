/** Options of {@link formatValue}. */
export interface ValueTextOptions {
  /** Longest string shown whole; longer ones are cut with `… [+N chars]`. @default 2_000 */
  maxStringChars?: number;
  /** Deepest nesting shown; deeper containers read `{…}` / `[…]`. @default 12 */
  maxDepth?: number;
  /** Most array items or object keys shown per container. @default 100 */
  maxItems?: number;
}

/**
 * A value as people read it: strings as they are (multi-line strings
 * indented under their key), objects as `key: value` lines, arrays as `-`
 * items, nesting by two spaces. Every cut says how much it left out.
 */
export function formatValue(value: unknown, options: ValueTextOptions = {}): string {
  const limits = { maxStringChars: 2_000, maxDepth: 12, maxItems: 100, ...options };
  return lines(value, 0, limits).join('\n');
}

type Limits = Required<ValueTextOptions>;

function lines(value: unknown, depth: number, limits: Limits): string[] {
  if (value === null || value === undefined) return [String(value)];
  if (typeof value === 'string') return cutString(value, limits.maxStringChars).split('\n');
  if (typeof value !== 'object') return [String(value)];
  const isArray = Array.isArray(value);
  const entries: [string, unknown][] = isArray
    ? (value as unknown[]).map((v, i) => [String(i), v])
    : Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return [isArray ? '[]' : '{}'];
  if (depth >= limits.maxDepth)
    return [isArray ? `[… ${entries.length} items]` : `{… ${entries.length} keys}`];
  const out: string[] = [];
  for (const [key, item] of entries.slice(0, limits.maxItems)) {
    const inner = lines(item, depth + 1, limits);
    const head = isArray ? '-' : `${key}:`;
    const nested = typeof item === 'object' && item !== null && inner.length > 0 && !/^[[{]/.test(inner[0]!);
    if (inner.length === 1 && !nested) out.push(`${head} ${inner[0]}`);
    else {
      out.push(isArray && nested ? `- ${inner[0]}` : head);
      for (const line of isArray && nested ? inner.slice(1) : inner) out.push(`  ${line}`);
    }
  }
  if (entries.length > limits.maxItems) out.push(`… ${entries.length - limits.maxItems} more`);
  return out;
}

/** `text…` with how many characters were cut. */
export function cutString(text: string, max: number): string {
  return text.length <= max
    ? text
    : `${text.slice(0, max)}… [+${(text.length - max).toLocaleString('en-US')} chars]`;
}
