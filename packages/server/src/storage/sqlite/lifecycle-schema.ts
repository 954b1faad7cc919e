import type { Database } from 'better-sqlite3';
import {
  type ContentRefKey,
  contentRefsOf,
  contentRefsOfJson,
  mayHoldRefs,
  valueRefsOf,
} from '../content-refs.js';
import { fromBlob } from './blob.js';

/**
 * The reference tables of retention and deletion (migration 10, see
 * `LifecycleStorage`), each keyed so that "does anything still refer to
 * this digest?" is one primary-key probe:
 *
 *   call_refs(project, kind, target, call_row)    a call's values and files (kind 'v', 'f')
 *   value_refs(project, kind, target, from_digest) a value's: its prev, nested markers, files
 *   content_pins(project, kind, target)            files objects and table rows name ('f'),
 *                                                  calls a dataset row was made from ('c')
 *
 * Rows are added with what refers (the ingest batch, `putValues`,
 * `putObject`, `putTableRows`) and removed only with it: a call's rows when
 * the call is deleted, read again from its stored values; a value's when
 * the value is collected. A half re-sent with other values leaves its old
 * rows: the values stay until the call goes (kept too long, never too
 * short). Pins are never removed (objects and tables are never deleted).
 */
export const LIFECYCLE_SCHEMA = `
  CREATE TABLE call_refs (
    project TEXT NOT NULL,
    kind TEXT NOT NULL,
    target TEXT NOT NULL,
    call_row INTEGER NOT NULL,
    PRIMARY KEY (project, kind, target, call_row)
  ) WITHOUT ROWID;
  CREATE TABLE value_refs (
    project TEXT NOT NULL,
    kind TEXT NOT NULL,
    target TEXT NOT NULL,
    from_digest TEXT NOT NULL,
    PRIMARY KEY (project, kind, target, from_digest)
  ) WITHOUT ROWID;
  CREATE TABLE content_pins (
    project TEXT NOT NULL,
    kind TEXT NOT NULL,
    target TEXT NOT NULL,
    PRIMARY KEY (project, kind, target)
  ) WITHOUT ROWID;
`;

/** Splits a {@link ContentRefKey} into its kind and target. */
export function splitRef(key: ContentRefKey): [kind: string, target: string] {
  return [key.slice(0, 1), key.slice(2)];
}

/**
 * Fills the reference tables from what was stored before migration 10:
 * only rows whose bytes hold `weft` can refer to anything, so the others
 * are never decoded.
 */
export function backfillContentRefs(db: Database): void {
  const callRef = db.prepare(
    'INSERT OR IGNORE INTO call_refs (project, kind, target, call_row) VALUES (?, ?, ?, ?)',
  );
  const calls = db.prepare(`SELECT rowid, project, inputs, attributes, output FROM calls
    WHERE instr(inputs, X'77656674') > 0 OR instr(attributes, X'77656674') > 0 OR instr(output, X'77656674') > 0`);
  for (const row of calls.iterate() as Iterable<CallBlobs>) {
    for (const key of callRefsOf(row) ?? []) callRef.run(row.project, ...splitRef(key), row.rowid);
  }
  const valueRef = db.prepare(
    'INSERT OR IGNORE INTO value_refs (project, kind, target, from_digest) VALUES (?, ?, ?, ?)',
  );
  const values = db.prepare('SELECT project, digest, prev, bytes FROM call_values');
  for (const row of values.iterate() as Iterable<ValueBlob>) {
    for (const key of valueRefsOf(row.prev ?? undefined, row.bytes))
      valueRef.run(row.project, ...splitRef(key), row.digest);
  }
  const pin = db.prepare('INSERT OR IGNORE INTO content_pins (project, kind, target) VALUES (?, ?, ?)');
  for (const table of ['objects', 'table_rows']) {
    const rows = db.prepare(`SELECT project, value FROM ${table} WHERE instr(value, 'weft:///') > 0`);
    for (const row of rows.iterate() as Iterable<{ project: string; value: string }>) {
      for (const key of contentRefsOfJson(row.value) ?? []) pin.run(row.project, ...splitRef(key));
    }
  }
}

interface CallBlobs {
  rowid: number;
  project: string;
  inputs: Uint8Array | null;
  attributes: Uint8Array | null;
  output: Uint8Array | null;
}

interface ValueBlob {
  project: string;
  digest: string;
  prev: string | null;
  bytes: Uint8Array;
}

/** What a stored call refers to, read from its value columns (only values and files: calls never name calls that way). */
export function callRefsOf(row: Omit<CallBlobs, 'rowid' | 'project'>): ContentRefKey[] | null {
  const decoded = [row.inputs, row.attributes, row.output]
    .filter((blob): blob is Uint8Array => blob !== null && mayHoldRefs(blob))
    .map((blob) => fromBlob<unknown>(blob, null));
  const refs = decoded.length === 0 ? null : contentRefsOf(...decoded);
  return refs === null ? null : refs.filter((key) => !key.startsWith('c:'));
}
