/** One difference between two JSON-like values, at a path into them. */
export interface ValueDifference {
  /** Where: `messages[3].content`; `''` for the values themselves. */
  readonly path: string;
  /** `changed`: both sides have a different value there; `added`: only the right side has it; `removed`: only the left. */
  readonly kind: 'changed' | 'added' | 'removed';
  readonly left?: unknown;
  readonly right?: unknown;
}

const IDENT = /^[A-Za-z_$][\w$]*$/;
/** Stands for a member or item one side does not have. */
const MISSING: unique symbol = Symbol('missing');

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function member(path: string, key: string): string {
  if (IDENT.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/**
 * The differences between two JSON-like values (as the read API returns
 * them), leaves first found first: objects by key (sorted), arrays by index.
 * At most `limit` are listed; a container that differs only in type is one
 * difference. Iterative, so depth is not limited by the stack.
 */
export function valueDifferences(left: unknown, right: unknown, limit = 20): ValueDifference[] {
  const out: ValueDifference[] = [];
  const stack: { path: string; left: unknown; right: unknown }[] = [{ path: '', left, right }];
  while (stack.length > 0 && out.length < limit) {
    const { path, left: l, right: r } = stack.pop() as { path: string; left: unknown; right: unknown };
    if (Object.is(l, r)) continue;
    if (Array.isArray(l) && Array.isArray(r)) {
      const pairs: { path: string; left: unknown; right: unknown }[] = [];
      for (let i = 0; i < Math.max(l.length, r.length); i++) {
        const at = `${path}[${i}]`;
        if (i >= r.length) pairs.push({ path: at, left: l[i], right: MISSING });
        else if (i >= l.length) pairs.push({ path: at, left: MISSING, right: r[i] });
        else pairs.push({ path: at, left: l[i], right: r[i] });
      }
      for (let i = pairs.length - 1; i >= 0; i--) stack.push(pairs[i] as (typeof pairs)[number]);
      continue;
    }
    if (isRecord(l) && isRecord(r)) {
      const keys = [...new Set([...Object.keys(l), ...Object.keys(r)])].sort();
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        const inL = Object.hasOwn(l, key) && l[key] !== undefined;
        const inR = Object.hasOwn(r, key) && r[key] !== undefined;
        if (!inL && !inR) continue;
        stack.push({ path: member(path, key), left: inL ? l[key] : MISSING, right: inR ? r[key] : MISSING });
      }
      continue;
    }
    if (l === MISSING) out.push({ path, kind: 'added', right: r });
    else if (r === MISSING) out.push({ path, kind: 'removed', left: l });
    else out.push({ path, kind: 'changed', left: l, right: r });
  }
  return out;
}
