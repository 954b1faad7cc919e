import type { CallStatus, TraceColumnsResponse } from '@weft/protocol';
import { fromStored } from './call-columns.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import { sqlLiteral } from './sql-literal.js';
import { unescapeTabSeparated } from './tab-separated-read.js';

/**
 * Each distinct string once, in order of first use, keyed by its escaped
 * TabSeparated text: a name seen before is neither unescaped nor copied.
 */
class StringColumn {
  readonly items: string[] = [];
  readonly #index = new Map<string, number>();

  add(escaped: string): number {
    let at = this.#index.get(escaped);
    if (at === undefined) {
      at = this.items.push(unescapeTabSeparated(escaped)) - 1;
      this.#index.set(escaped, at);
    }
    return at;
  }
}

/**
 * Each distinct value once, in order of first use. A stored text is known
 * by its key (see {@link traceStatement}: a 64-bit hash and the length): a
 * text seen before costs a lookup of its short key and a comparison in
 * place with the text held under it (so two texts whose keys collide are
 * still told apart), and is neither copied nor decoded again; a new one is
 * decoded and written as JSON once, and values equal as JSON share an index
 * whatever bytes held them (as `traceColumnsOf` shares them).
 */
class ValueColumn {
  readonly items: unknown[] = [];
  readonly #byJson = new Map<string, number>();
  /** By key: the text first seen with it and its value's index, -1 for a stored null. */
  readonly #byKey = new Map<string, { text: string; at: number }>();

  /**
   * The index of the value of the current field of `row` (keyed `key`); a
   * stored null gives `null` when `nullable`. Empty texts are the caller's:
   * see {@link readTraceColumns}.
   */
  add(key: string, row: TabSeparatedCursor, nullable: boolean): number | null {
    const held = this.#byKey.get(key);
    let at: number;
    if (held !== undefined && row.currentIs(held.text)) at = held.at;
    else {
      const text = row.current();
      const value = fromStored<unknown>(text, {});
      at = value === null || value === undefined ? -1 : this.indexOf(value);
      if (held === undefined) this.#byKey.set(key, { text, at });
    }
    if (at !== -1) return at;
    return nullable ? null : this.indexOf(null);
  }

  /** The index of `value`, added when no value equal as JSON is there. */
  indexOf(value: unknown): number {
    const json = JSON.stringify(value) ?? 'null';
    let at = this.#byJson.get(json);
    if (at === undefined) {
      at = this.items.push(value) - 1;
      this.#byJson.set(json, at);
    }
    return at;
  }
}

/** The fields of one TabSeparated row at a time, read in place: a field is sliced only when asked for. */
class TabSeparatedCursor {
  #at = 0;
  #lineEnd = -1;
  #fieldEnd = -1;

  constructor(
    readonly text: string,
    readonly fields: number,
  ) {}

  /** Moves to the next row; false at the end of the text. */
  nextRow(): boolean {
    this.#at = this.#lineEnd + 1;
    if (this.#at >= this.text.length) return false;
    const end = this.text.indexOf('\n', this.#at);
    this.#lineEnd = end === -1 ? this.text.length : end;
    this.#fieldEnd = this.#at - 1;
    return true;
  }

  /** Moves to the row's next field; throws when the row has fewer than `fields`. */
  skip(): this {
    this.#at = this.#fieldEnd + 1;
    const tab = this.text.indexOf('\t', this.#at);
    this.#fieldEnd = tab === -1 || tab > this.#lineEnd ? this.#lineEnd : tab;
    if (this.#at > this.#lineEnd) this.#malformed();
    return this;
  }

  /** The next field's text, still escaped. */
  field(): string {
    this.skip();
    return this.text.slice(this.#at, this.#fieldEnd);
  }

  /** The current field's text (after `skip`). */
  current(): string {
    return this.text.slice(this.#at, this.#fieldEnd);
  }

  /** Whether the current field's text is `text` (compared in place). */
  currentIs(text: string): boolean {
    return this.#fieldEnd - this.#at === text.length && this.text.startsWith(text, this.#at);
  }

  /** Whether the current field is empty. */
  empty(): boolean {
    return this.#at === this.#fieldEnd;
  }

  /** Throws when the row holds more fields than were read. */
  endRow(): void {
    if (this.#fieldEnd !== this.#lineEnd) this.#malformed();
  }

  #malformed(): never {
    const row = this.text.slice(this.text.lastIndexOf('\n', this.#lineEnd - 1) + 1, this.#lineEnd);
    throw new Error(`A TabSeparated row does not hold ${this.fields} fields: ${row.slice(0, 200)}`);
  }
}

/** The fields of a row of {@link traceStatement}, in order: `key:` a value's key, then the value. */
const TRACE_FIELDS = [
  'id',
  'parent_id',
  'op_name',
  'has_display',
  'display_name',
  'session_id',
  'started_ms',
  'key:attributes',
  'has_end',
  'ended_ms',
  'status',
  'key:summary',
  'key:exception',
] as const;

/** How many fields a row of {@link traceStatement} holds: a key before each value. */
const ROW_FIELDS = TRACE_FIELDS.length + TRACE_FIELDS.filter((field) => field.startsWith('key:')).length;

/**
 * The statement of a trace's light calls: one primary-key range of
 * `call_trace` (see `callTraceTable`), the newest version of each call
 * (`LIMIT 1 BY id` over its copies, next to each other in the key), in
 * start order then id, at most `limit` — a TabSeparated row per call with
 * {@link TRACE_FIELDS}. Each stored value comes after its key: its 64-bit
 * CityHash and length in hex, so the reader tells a value it has seen by a
 * lookup of 24 characters and a comparison, not a decode (a 25,001-call
 * trace holds some 3,000 distinct attributes).
 */
function traceStatement(table: string, project: string, traceId: string, limit: number): string {
  const fields = TRACE_FIELDS.flatMap((field) => {
    if (!field.startsWith('key:')) return [field];
    const value = field.slice('key:'.length);
    return [`concat(hex(cityHash64(${value})), hex(length(${value})))`, value];
  });
  return `
    SELECT ${fields.join(', ')} FROM (
      SELECT * FROM ${table} WHERE project = ${sqlLiteral(project)} AND trace_id = ${sqlLiteral(traceId)}
      ORDER BY id, version DESC LIMIT 1 BY id)
    ORDER BY started_ms, id LIMIT ${Math.trunc(limit)}`;
}

/**
 * Every call of a trace whose start arrived, light, as a
 * `traceColumnsResponse` (markers not expanded): the rows of
 * {@link traceStatement} over `table` (`call_trace`), their TabSeparated
 * fields written straight into the columns, with no object per call. At
 * most `limit` calls, the first by start time then id; `truncated` when the
 * trace holds more. (`Storage.traceCalls` is these columns as calls.)
 */
export async function readTraceColumns(
  connection: ClickHouseConnection,
  table: string,
  project: string,
  traceId: string,
  limit: number,
): Promise<TraceColumnsResponse> {
  const text = await connection.tabSeparatedText(traceStatement(table, project, traceId, limit + 1));
  const strings = new StringColumn();
  const values = new ValueColumn();
  const columns: TraceColumnsResponse = {
    project,
    traceId,
    truncated: false,
    ids: [],
    parents: [],
    startedAt: [],
    endedAt: [],
    status: [],
    opName: [],
    displayName: [],
    sessionId: [],
    attributes: [],
    summary: [],
    exception: [],
    strings: strings.items,
    values: values.items,
  };
  const parentIds: string[] = [];
  const row = new TabSeparatedCursor(text, ROW_FIELDS);
  // A stored value, by its key: '' (none) is the empty object for attributes, else null.
  const value = (nullable: boolean): number | null => {
    const key = row.field();
    if (row.skip().empty()) return nullable ? null : values.indexOf({});
    return values.add(key, row, nullable);
  };
  // A call without an end shows no summary or exception, whatever its row holds.
  const skipValue = () => {
    row.skip().skip();
    return null;
  };
  for (let i = 0; row.nextRow(); i++) {
    if (i === limit) {
      columns.truncated = true;
      break;
    }
    // Fields in `traceStatement`'s order; ids and base64 values hold no escapes. Strings, then
    // values, are added in the order `traceColumnsOf` adds them: the same calls give the same answer.
    columns.ids.push(row.field());
    parentIds.push(row.field());
    columns.opName.push(strings.add(row.field()));
    const hasDisplay = row.field() === '1';
    const display = row.field();
    columns.displayName.push(hasDisplay ? strings.add(display) : null);
    // An empty session id is "none": the protocol refuses an empty one.
    const session = row.field();
    columns.sessionId.push(session === '' ? null : strings.add(session));
    columns.startedAt.push(Number(row.field()));
    columns.attributes.push(value(false) as number);
    const ended = row.field() === '1';
    const endedAt = row.field();
    const status = row.field();
    columns.endedAt.push(ended ? Number(endedAt) : null);
    columns.status.push(ended ? (status as CallStatus) : 'running');
    columns.summary.push(ended ? value(true) : skipValue());
    columns.exception.push(ended ? value(true) : skipValue());
    row.endRow();
  }
  // Parents by index once every id is known (a child may start before its parent).
  const position = new Map<string, number>();
  for (let i = 0; i < columns.ids.length; i++) position.set(columns.ids[i] as string, i);
  for (const parent of parentIds)
    columns.parents.push(parent === '' ? null : (position.get(parent) ?? parent));
  return columns;
}
