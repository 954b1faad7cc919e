import type { CallStatus, TraceColumnsResponse } from '@weft/protocol';
import { fromStored } from './call-columns.js';
import { TRACE_FIELDS, traceStatement } from './call-page-read.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
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
 * Each distinct value once, in order of first use. A stored text (base64
 * msgpack) seen before costs one map lookup: it is decoded and written as
 * JSON once, and values equal as JSON share an index whatever bytes held
 * them (as `traceColumnsOf` shares them).
 */
class ValueColumn {
  readonly items: unknown[] = [];
  readonly #byJson = new Map<string, number>();
  readonly #byStored = new Map<string, number>();

  /**
   * The index of the value `stored` holds; for '' (none), of `{}` when
   * `nullable` is false, else `null`, as is a stored null when `nullable`.
   */
  add(stored: string, nullable: boolean): number | null {
    if (nullable && stored === '') return null;
    // A stored text means one value, whether or not it may be null: a null is cached as -1.
    let at = this.#byStored.get(stored);
    if (at !== undefined) return at === -1 ? (nullable ? null : this.#indexOf(null)) : at;
    const value = fromStored<unknown>(stored, {});
    if (value === null || value === undefined) {
      this.#byStored.set(stored, -1);
      return nullable ? null : this.#indexOf(value);
    }
    at = this.#indexOf(value);
    this.#byStored.set(stored, at);
    return at;
  }

  /** The index of `value`, added when no value equal as JSON is there. */
  #indexOf(value: unknown): number {
    const json = JSON.stringify(value) ?? 'null';
    let at = this.#byJson.get(json);
    if (at === undefined) {
      at = this.items.push(value) - 1;
      this.#byJson.set(json, at);
    }
    return at;
  }
}

/**
 * Every call of a trace whose start arrived, light, as a
 * `traceColumnsResponse` (markers not expanded): the statement of
 * `readTraceCalls`, its TabSeparated fields written straight into the
 * columns, with no object per call (a 25,001-call trace built three layers
 * of them: folded rows, calls, then the columns). At most `limit` calls,
 * the first by start time then id; `truncated` when the trace holds more.
 */
export async function readTraceColumns(
  connection: ClickHouseConnection,
  tables: { table: string; list: string },
  project: string,
  traceId: string,
  limit: number,
  settings: string,
): Promise<TraceColumnsResponse> {
  const text = await connection.tabSeparatedText(
    traceStatement(tables, project, traceId, limit + 1, settings),
  );
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const n = Math.min(lines.length, limit);
  const strings = new StringColumn();
  const values = new ValueColumn();
  const columns: TraceColumnsResponse = {
    project,
    traceId,
    truncated: lines.length > limit,
    ids: new Array(n),
    parents: new Array(n),
    startedAt: new Array(n),
    endedAt: new Array(n),
    status: new Array(n),
    opName: new Array(n),
    displayName: new Array(n),
    sessionId: new Array(n),
    attributes: new Array(n),
    summary: new Array(n),
    exception: new Array(n),
    strings: strings.items,
    values: values.items,
  };
  const parentIds: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const line = lines[i] as string;
    const f = line.split('\t');
    if (f.length !== TRACE_FIELDS)
      throw new Error(
        `A TabSeparated row holds ${f.length} fields, not ${TRACE_FIELDS}: ${line.slice(0, 200)}`,
      );
    // Fields as `traceStatement` lists them; ids and base64 values hold no escapes.
    const [
      id,
      parent,
      op,
      hasDisplay,
      display,
      session,
      startedAt,
      attributes,
      hasEnd,
      endedAt,
      status,
      exception,
      summary,
    ] = f as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const ended = hasEnd === '1';
    columns.ids[i] = id;
    parentIds[i] = parent;
    columns.startedAt[i] = Number(startedAt);
    columns.endedAt[i] = ended ? Number(endedAt) : null;
    columns.status[i] = ended ? (status as CallStatus) : 'running';
    // Strings, then values, added in the order `traceColumnsOf` adds them: the same calls give the same answer.
    columns.opName[i] = strings.add(op);
    columns.displayName[i] = hasDisplay === '1' ? strings.add(display) : null;
    // An empty session id is "none": the protocol refuses an empty one.
    columns.sessionId[i] = session === '' ? null : strings.add(session);
    columns.attributes[i] = values.add(attributes, false) as number;
    columns.summary[i] = ended ? values.add(summary, true) : null;
    columns.exception[i] = ended ? values.add(exception, true) : null;
  }
  // Parents by index once every id is known (a child may start before its parent).
  const position = new Map<string, number>();
  for (let i = 0; i < n; i++) position.set(columns.ids[i] as string, i);
  for (let i = 0; i < n; i++) {
    const parent = parentIds[i] as string;
    columns.parents[i] = parent === '' ? null : (position.get(parent) ?? parent);
  }
  return columns;
}
