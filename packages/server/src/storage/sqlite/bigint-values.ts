import { decodeMsgpack } from '@weft/protocol';
import type { Database } from 'better-sqlite3';
import { toBlob } from './blob.js';

/** The value columns of `calls` that hold msgpack (see `toBlob`). */
const VALUE_COLUMNS = ['inputs', 'attributes', 'output', 'exception', 'summary'] as const;

/**
 * msgpack type bytes of 64-bit integers (uint64 0xcf, int64 0xd3): the only
 * encodings that decode to a bigint. A blob without either byte cannot hold
 * one, so SQLite's `instr` picks the few rows worth decoding.
 */
const INT64_TYPE_BYTES = ["x'cf'", "x'd3'"];

/**
 * The form the SDK gives a bigint (`{ _weft: 'bigint', value: '<decimal>' }`,
 * see docs/values.md), so an old row reads like one written today.
 */
function safeForm(value: bigint): { _weft: 'bigint'; value: string } {
  return { _weft: 'bigint', value: value.toString() };
}

/** A copy of `value` with every bigint replaced by its safe form; `undefined` when it holds none. */
export function replaceBigints(value: unknown): unknown {
  let changed = false;
  // Iterative over containers: a stored value may be nested ~1,000 levels.
  const visit = (v: unknown): unknown => {
    if (typeof v === 'bigint') {
      changed = true;
      return safeForm(v);
    }
    return v;
  };
  const root = { value };
  const stack: Record<string | number, unknown>[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    for (const key of Object.keys(node)) {
      const child = visit(node[key]);
      if (child !== node[key]) node[key] = child;
      else if (child !== null && typeof child === 'object' && !ArrayBuffer.isView(child)) {
        stack.push(child as Record<string | number, unknown>);
      }
    }
  }
  return changed ? root.value : undefined;
}

/**
 * Rewrites the value columns of calls that hold a bigint (stored before the
 * server refused them) into their safe form. Runs once, inside the
 * migration's transaction.
 */
export function bigintValuesToSafeForm(db: Database): void {
  for (const column of VALUE_COLUMNS) {
    const where = INT64_TYPE_BYTES.map((b) => `instr(${column}, ${b}) > 0`).join(' OR ');
    const rows = db
      .prepare(`SELECT project, id, ${column} AS blob FROM calls WHERE ${column} IS NOT NULL AND (${where})`)
      .all() as { project: string; id: string; blob: Uint8Array }[];
    const update = db.prepare(`UPDATE calls SET ${column} = ? WHERE project = ? AND id = ?`);
    for (const row of rows) {
      let decoded: unknown;
      try {
        decoded = decodeMsgpack(row.blob);
      } catch {
        continue; // not ours to judge here: a blob this server cannot decode stays as it was
      }
      const fixed = replaceBigints(decoded);
      if (fixed !== undefined) update.run(toBlob(fixed), row.project, row.id);
    }
  }
}
