import { type Ref, tryParseRef } from '../api/index.js';

/** The `weft:///` refs inside a value (depth-first, each URI once, at most `limit`). */
export function findRefs(value: unknown, limit = 50): { uri: string; ref: Ref }[] {
  const out: { uri: string; ref: Ref }[] = [];
  const seen = new Set<string>();
  const stack: unknown[] = [value];
  while (stack.length > 0 && out.length < limit) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.startsWith('weft:///') && !seen.has(v)) {
        seen.add(v);
        const ref = tryParseRef(v);
        // A malformed ref is left out here; the viewer shows it as a plain string.
        if (ref !== undefined) out.push({ uri: v, ref });
      }
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (v !== null && typeof v === 'object') {
      stack.push(...Object.values(v).reverse());
    }
  }
  return out;
}
