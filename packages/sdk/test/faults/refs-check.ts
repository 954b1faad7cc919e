import { parseRef, routes } from '@weft/protocol';
import { listServerCalls } from '../support/index.js';

/** Every ref found in the calls, and the ones the server does not resolve. */
export interface RefsCheck {
  refs: number;
  unresolved: string[];
}

/** The `weft:///` strings anywhere in `value`. */
function refsIn(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') {
    if (value.startsWith('weft:///')) into.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) refsIn(item, into);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) refsIn(item, into);
  }
}

/** Where a ref is read: an object version, a table's first row, a file's bytes. */
function readPath(ref: string): string {
  const parsed = parseRef(ref);
  switch (parsed.kind) {
    case 'object':
    case 'op':
      return routes.objectRead(parsed.project, parsed.name, parsed.digest);
    case 'table':
      return `${routes.tableRows(parsed.project, parsed.digest)}?offset=0&limit=1`;
    case 'file':
      return routes.fileRead(parsed.project, parsed.digest);
    case 'call':
      return routes.call(parsed.project, parsed.id);
  }
}

/**
 * Reads every ref in the inputs and outputs of `project`'s calls (and
 * `extra` refs) straight from the server, following refs inside object
 * versions too (a dataset's version names its table).
 */
export async function checkRefs(
  url: string,
  project: string,
  extra: readonly string[] = [],
): Promise<RefsCheck> {
  const pending = new Set<string>(extra);
  for (const call of await listServerCalls(url, project)) refsIn([call.inputs, call.output], pending);
  const seen = new Set<string>();
  const unresolved: string[] = [];
  while (pending.size > 0) {
    const [ref] = pending;
    pending.delete(ref as string);
    if (seen.has(ref as string)) continue;
    seen.add(ref as string);
    const response = await fetch(url + readPath(ref as string));
    if (!response.ok) {
      unresolved.push(`${ref} (${response.status})`);
      continue;
    }
    if (parseRef(ref as string).kind === 'object') {
      const found = new Set<string>();
      refsIn(((await response.json()) as { value?: unknown }).value, found);
      for (const inner of found) if (!seen.has(inner)) pending.add(inner);
    } else {
      await response.arrayBuffer();
    }
  }
  return { refs: seen.size, unresolved };
}
