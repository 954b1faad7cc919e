/** An attribute filter value: equality on strings, numbers and booleans. */
export type AttributeValue = string | number | boolean;

/**
 * Reads what a person typed in the filter box, `key=value`: `true`/`false`
 * are booleans, a plain decimal is a number, quotes force a string
 * (`tier="2"`). `undefined` when there is no `=` or no key.
 */
export function parseAttributeChip(text: string): [string, AttributeValue] | undefined {
  const eq = text.indexOf('=');
  if (eq <= 0) return undefined;
  const key = text.slice(0, eq).trim();
  const raw = text.slice(eq + 1).trim();
  if (key === '') return undefined;
  if (raw === 'true' || raw === 'false') return [key, raw === 'true'];
  if (/^-?\d+(\.\d+)?$/.test(raw)) return [key, Number(raw)];
  const quoted = /^"(.*)"$/.exec(raw);
  return [key, quoted ? (quoted[1] as string) : raw];
}

/** The chips as they travel in the URL (`attrs=` JSON), ignoring anything malformed. */
export function attributesFromQuery(text: string | null): Record<string, AttributeValue> {
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const out: Record<string, AttributeValue> = {};
    for (const [k, v] of Object.entries(parsed)) {
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
    }
    return out;
  } catch {
    return {};
  }
}

/** A chip's label: strings quoted when they would read as another type. */
export function chipText(key: string, value: AttributeValue): string {
  const ambiguous =
    typeof value === 'string' && (value === 'true' || value === 'false' || /^-?\d+(\.\d+)?$/.test(value));
  return `${key}=${ambiguous ? `"${value}"` : String(value)}`;
}
