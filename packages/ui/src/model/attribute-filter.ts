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

/** Attribute filters read from the URL, and the values that could not be read. */
export interface AttributesFromQuery {
  attributes: Record<string, AttributeValue>;
  /** `attrs` values that are neither `key=value` nor a JSON object of such, as given. */
  invalid: string[];
}

/**
 * The attribute chips in the URL: one `attrs` parameter per chip, written
 * as the chip is typed (`?attrs=plan%3Dpro&attrs=tier%3D%222%22`), so a
 * hand-written link works. A JSON object (`attrs={"plan":"pro"}`, what
 * links carried before) is read too. Anything else is reported in
 * `invalid`, for the view to show, never dropped silently.
 */
export function attributesFromQuery(values: readonly string[]): AttributesFromQuery {
  const attributes: Record<string, AttributeValue> = {};
  const invalid: string[] = [];
  for (const text of values) {
    if (text.trim() === '') continue;
    if (text.trimStart().startsWith('{')) {
      const parsed = jsonAttributes(text);
      if (parsed === undefined) invalid.push(text);
      else Object.assign(attributes, parsed);
      continue;
    }
    const chip = parseAttributeChip(text);
    if (chip === undefined) invalid.push(text);
    else attributes[chip[0]] = chip[1];
  }
  return { attributes, invalid };
}

/** The chips as `attrs` values of the URL (the inverse of {@link attributesFromQuery}). */
export function attributesToQuery(attributes: Record<string, AttributeValue>): string[] {
  return Object.entries(attributes).map(([key, value]) => chipText(key, value));
}

function jsonAttributes(text: string): Record<string, AttributeValue> | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    const out: Record<string, AttributeValue> = {};
    for (const [k, v] of Object.entries(parsed)) {
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return undefined;
      out[k] = v;
    }
    return out;
  } catch {
    return undefined;
  }
}

/** A chip's label: strings quoted when they would read as another type. */
export function chipText(key: string, value: AttributeValue): string {
  const ambiguous =
    typeof value === 'string' && (value === 'true' || value === 'false' || /^-?\d+(\.\d+)?$/.test(value));
  return `${key}=${ambiguous ? `"${value}"` : String(value)}`;
}
