/** How an indexed attribute value is typed: string, number, boolean (stored as 0/1). */
export type AttributeKind = 's' | 'n' | 'b';

/** One indexed attribute value: `[key, kind, value]`. */
export type AttributeTerm = [key: string, kind: AttributeKind, value: string | number];

/** Most terms indexed per call; attributes past it are stored but not filterable. */
export const MAX_ATTRIBUTE_TERMS = 200;
/** Longest string value indexed (longer ones are stored but not filterable). */
export const MAX_ATTRIBUTE_VALUE_CHARS = 1_000;
/** Nested objects are flattened to dotted keys this deep: `{ user: { id } }` is `user.id`. */
const MAX_DEPTH = 3;

/** A filter value as an indexed term's kind and value. */
export function attributeTerm(value: string | number | boolean): [AttributeKind, string | number] {
  if (typeof value === 'boolean') return ['b', value ? 1 : 0];
  return [typeof value === 'number' ? 'n' : 's', value];
}

/**
 * The filterable terms of a call's attributes: every string, number and
 * boolean, nested objects flattened to dotted keys, and each scalar element
 * of an array under the array's key (so `{ tags: ['a', 'b'] }` matches
 * `tags = 'a'` and `tags = 'b'`).
 */
export function attributeTermsOf(attributes: Record<string, unknown> | undefined): AttributeTerm[] {
  const terms: AttributeTerm[] = [];
  if (attributes === undefined || attributes === null) return terms;
  const visit = (key: string, value: unknown, depth: number, inArray: boolean): void => {
    if (terms.length >= MAX_ATTRIBUTE_TERMS) return;
    if (typeof value === 'string') {
      if (value.length <= MAX_ATTRIBUTE_VALUE_CHARS) terms.push([key, 's', value]);
    } else if (typeof value === 'number') {
      if (Number.isFinite(value)) terms.push([key, 'n', value]);
    } else if (typeof value === 'boolean') {
      terms.push([key, 'b', value ? 1 : 0]);
    } else if (Array.isArray(value)) {
      if (!inArray) for (const element of value) visit(key, element, depth, true);
    } else if (value !== null && typeof value === 'object' && !inArray && depth < MAX_DEPTH) {
      for (const [k, v] of Object.entries(value as Record<string, unknown>))
        visit(`${key}.${k}`, v, depth + 1, false);
    }
  };
  for (const [key, value] of Object.entries(attributes)) visit(key, value, 1, false);
  return terms;
}
