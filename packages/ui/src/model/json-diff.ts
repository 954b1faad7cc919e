/** One difference between two JSON-like values, at a path of keys/indices. */
export interface DiffEntry {
  path: (string | number)[];
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

/**
 * The differences between two JSON-like values: leaves that changed, and keys
 * or array items present on one side only. Containers of different shapes
 * count as one change. Stops after `limit` entries so a huge diff stays cheap.
 */
export function jsonDiff(before: unknown, after: unknown, limit = 500): DiffEntry[] {
  const out: DiffEntry[] = [];
  // Entries wait on one LIFO stack, in key order, so output follows the keys.
  type Pending = { path: (string | number)[]; a: unknown; b: unknown } | DiffEntry;
  const stack: Pending[] = [{ path: [], a: before, b: after }];
  while (stack.length > 0 && out.length < limit) {
    const item = stack.pop()!;
    if ('kind' in item) {
      out.push(item);
      continue;
    }
    const { path, a, b } = item;
    if (Object.is(a, b)) continue;
    const aKind = kindOf(a);
    if (aKind !== kindOf(b) || aKind === 'leaf') {
      out.push({ path, kind: 'changed', before: a, after: b });
      continue;
    }
    const next: typeof stack = [];
    if (aKind === 'array') {
      const left = a as unknown[];
      const right = b as unknown[];
      for (let i = 0; i < Math.max(left.length, right.length); i++) {
        if (i >= left.length) next.push({ path: [...path, i], kind: 'added', after: right[i] });
        else if (i >= right.length) next.push({ path: [...path, i], kind: 'removed', before: left[i] });
        else next.push({ path: [...path, i], a: left[i], b: right[i] });
      }
    } else {
      const left = a as Record<string, unknown>;
      const right = b as Record<string, unknown>;
      const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
      for (const key of keys) {
        if (!(key in right)) next.push({ path: [...path, key], kind: 'removed', before: left[key] });
        else if (!(key in left)) next.push({ path: [...path, key], kind: 'added', after: right[key] });
        else next.push({ path: [...path, key], a: left[key], b: right[key] });
      }
    }
    stack.push(...next.reverse());
  }
  return out.slice(0, limit);
}

function kindOf(value: unknown): 'array' | 'object' | 'leaf' {
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' && value !== null ? 'object' : 'leaf';
}

/** `a.b[2].c` for display. */
export function formatPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((p, i) =>
      typeof p === 'number'
        ? `[${p}]`
        : /^[A-Za-z_$][\w$]*$/.test(p)
          ? i
            ? `.${p}`
            : p
          : `[${JSON.stringify(p)}]`,
    )
    .join('');
}
