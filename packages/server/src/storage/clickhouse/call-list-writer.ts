import type { ClickHouseSettings } from '@clickhouse/client';
import type { CallHalfRow } from './call-halves.js';
import {
  type CallHalves,
  CALL_LIST_COLUMNS,
  type CallListRow,
  callListRow,
  halvesInBatch,
  halvesOfFold,
  LIST_FOLD_COLUMNS,
} from './call-list-rows.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import type { SchemaProfile } from './schema-profile.js';
import { inList, sqlLiteral } from './sql-literal.js';
import { CALL_TRACE_COLUMNS } from './trace-schema.js';
import { dateTime64Text, type NumberText } from './tab-separated.js';

/** Ids per lookup of stored halves. */
const IDS_PER_LOOKUP = 1_000;

/**
 * Keeps `call_list` (one row per call, see `callListStatements`) and
 * `call_trace` (the same rows keyed by trace, see `callTraceTable`) in step
 * with `calls` (every half as it arrived). A batch's complete records give
 * their list rows directly. A record that carries ONE half needs the other
 * half, which may be stored already: its list row is rebuilt from `calls`
 * AFTER the batch's halves are stored there. Two halves of a call arriving
 * at the same moment on two replicas each store their half first and read
 * second, so at least one of them reads both and writes the full row (which
 * outranks a start alone, see `version`).
 */
export class ClickHouseCallListWriter {
  readonly #connection: ClickHouseConnection;
  readonly #calls: string;
  readonly #list: string;
  readonly #trace: string;
  readonly #insertSettings: ClickHouseSettings;
  /** The times of a list row (microseconds) as their column reads them: `DateTime64` text on modern servers. */
  readonly #times: Readonly<Record<string, NumberText>>;

  constructor({
    connection,
    calls,
    list,
    trace,
    insertSettings,
    profile,
  }: {
    connection: ClickHouseConnection;
    calls: string;
    list: string;
    /** `call_trace`, written with the same rows. */
    trace: string;
    insertSettings: ClickHouseSettings;
    profile: SchemaProfile;
  }) {
    this.#connection = connection;
    this.#calls = calls;
    this.#list = list;
    this.#trace = trace;
    this.#insertSettings = insertSettings;
    this.#times = profile.kind === 'modern' ? { started_at: dateTime64Text, ended_at: dateTime64Text } : {};
  }

  /** The list rows of a batch whose half-rows `rows` are stored in `calls` (the caller inserts them). */
  async rowsAfterHalves(project: string, rows: readonly CallHalfRow[]): Promise<CallListRow[]> {
    const listRows: CallListRow[] = [];
    const partial: string[] = [];
    for (const [id, halves] of halvesInBatch(rows)) {
      if (halves.start !== undefined && halves.end !== undefined)
        listRows.push(callListRow(project, halves as CallHalves));
      else partial.push(id);
    }
    listRows.push(...(await this.#rebuilt(project, partial)));
    return listRows;
  }

  /** Writes list rows to `call_list` and `call_trace` (one INSERT each, at once). */
  async insert(rows: readonly CallListRow[]): Promise<void> {
    await Promise.all([
      this.#connection.insertColumns(this.#list, CALL_LIST_COLUMNS, rows, this.#insertSettings, this.#times),
      this.#connection.insertColumns(this.#trace, CALL_TRACE_COLUMNS, rows, this.#insertSettings),
    ]);
  }

  /** Rewrites the list rows of `ids` from what `calls` holds now (after a roll-up changed their ends). */
  async refresh(project: string, ids: readonly string[]): Promise<void> {
    await this.insert(await this.#rebuilt(project, ids));
  }

  /** List rows of `ids` from their newest stored halves; none for an id whose start has not arrived. */
  async #rebuilt(project: string, ids: readonly string[]): Promise<CallListRow[]> {
    const rows: CallListRow[] = [];
    for (let i = 0; i < ids.length; i += IDS_PER_LOOKUP) {
      const folds = await this.#connection.rows<Record<string, unknown>>(`
        SELECT ${LIST_FOLD_COLUMNS} FROM ${this.#calls}
        WHERE project = ${sqlLiteral(project)} AND id IN ${inList(ids.slice(i, i + IDS_PER_LOOKUP))}
        GROUP BY id`);
      for (const fold of folds) {
        const halves = halvesOfFold(fold);
        if (halves !== undefined) rows.push(callListRow(project, halves));
      }
    }
    return rows;
  }
}
