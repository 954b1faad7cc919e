/** An attribute or feedback value as a person types it. */
export type FilterValue = string | number | boolean;

/**
 * Types a value the way the call query compares it (and the UI's filter
 * chips read it): `true`/`false` are booleans, a plain decimal is a number,
 * `"quoted"` is text (`tier="2"`), anything else is text.
 */
export function typedValue(raw: string): FilterValue {
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  const quoted = /^"(.*)"$/.exec(raw);
  return quoted ? (quoted[1] as string) : raw;
}
