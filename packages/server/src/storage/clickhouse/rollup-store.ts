import type { ClickHouseSettings } from '@clickhouse/client';
import type { CallItem, CallSummary, Feedback, FeedbackItem } from '@weft/protocol';
import {
  BatchRollup,
  type CallRollupKey,
  type CallRollupValues,
  type FactsWrite,
  type FeedbackFact,
  forgetDelta,
  KeyedQueue,
  RollupDelta,
  type StoredFacts,
} from '../rollup/index.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import { CALL_SUM_COLUMNS } from './rollup-schema.js';
import { inList, sqlLiteral } from './sql-literal.js';
import { nextSeq } from './write-sequence.js';

/** Where the store reads a call's feedback when the call's start moves it. */
export interface ClickHouseFeedbackSource {
  forCalls(project: string, callIds: readonly string[]): Promise<Map<string, Feedback[]>>;
}

/** Table names of the rollups (`<database>.<table>`). */
export interface RollupTables {
  facts: string;
  completions: string;
  callChanges: string;
  feedbackChanges: string;
  /** The table each shard stores rows of `table` in (the table itself on one server): what mutations name. */
  local(table: string): string;
}

/** `hist` of the rows of latency and TTFT histogram bins. */
export const LATENCY = 'l';
export const TTFT = 't';

/**
 * Columns of the rows the store inserts, in the order of their TabSeparated
 * rows (every row holds each): the batch path of ingest writes them per
 * flush, so they go as `insertColumns`, not JSONEachRow.
 */
const FACTS_COLUMNS = ['project', 'id', 'start', 'end', 'feedback_waiting', 'completed', 'seq'] as const;
const COMPLETIONS_COLUMNS = ['project', 'seq', 'id'] as const;
const CALL_CHANGE_COLUMNS = [
  'project',
  'cut',
  'op',
  'level',
  't',
  'root',
  'status',
  'value',
  'hist',
  'bin',
  ...CALL_SUM_COLUMNS.map(([column]) => column),
];
const FEEDBACK_CHANGE_COLUMNS = [
  'project',
  'cut',
  'op',
  'level',
  't',
  'root',
  'name',
  'value',
  'dvalue',
  'n',
  'numeric_n',
  'sum',
  'sum_squares',
] as const;

/** A row of `call_rollup_changes`, every column of {@link CALL_CHANGE_COLUMNS}. */
type CallChangeRow = Record<string, string | number>;

/**
 * A change row: the sums of `values`, or (a histogram bin's row, `values`
 * absent) only `n`, the bin's count. The key is one object literal of one
 * shape, no spread (the spreads were 9% of ingest's CPU); the sums follow
 * in {@link CALL_SUM_COLUMNS}' order, so every row takes the same shape.
 */
function callChangeRow(
  project: string,
  key: CallRollupKey,
  hist: string,
  bin: number,
  n: number,
  values?: CallRollupValues,
): CallChangeRow {
  const row: CallChangeRow = {
    project,
    cut: key.cut,
    op: key.op,
    level: key.level,
    t: key.t,
    root: key.root ? 1 : 0,
    status: key.status,
    value: key.value,
    hist,
    bin,
  };
  for (const [column, , field] of CALL_SUM_COLUMNS) row[column] = field === 'n' ? n : (values?.[field] ?? 0);
  return row;
}

/** Aliases carry an `r_` prefix: an alias equal to a column name would replace it in the other aggregates. */
interface FactsRow {
  id: string;
  r_start: string;
  r_end: string;
  r_waiting: number;
  r_completed: number;
}

/**
 * Keeps the metrics rollups in step with ingest in ClickHouse (see
 * rollup-schema.ts), with the semantics of `SqliteRollupStore`: after a
 * batch's calls are inserted, the batch's facts are read, merged, and the
 * difference of each changed call's contribution is inserted as change rows.
 * One project's rollup updates run one at a time in this process (a
 * `KeyedQueue`), so each reads the facts the previous one wrote.
 *
 * ClickHouse has no transaction across tables: the facts are written
 * before the changes, so a failure between the two leaves the rollups
 * short of that batch (never counted twice: a retried batch finds the new
 * facts and changes nothing). Two replicas updating the same call at the
 * same instant may both count its change (docs/monitoring.md).
 */
export class ClickHouseRollupStore {
  readonly #connection: ClickHouseConnection;
  readonly #tables: RollupTables;
  readonly #insertSettings: ClickHouseSettings;
  readonly #feedback: ClickHouseFeedbackSource;
  readonly #queue = new KeyedQueue();

  constructor(options: {
    connection: ClickHouseConnection;
    tables: RollupTables;
    insertSettings: ClickHouseSettings;
    feedback: ClickHouseFeedbackSource;
  }) {
    this.#connection = options.connection;
    this.#tables = options.tables;
    this.#insertSettings = options.insertSettings;
    this.#feedback = options.feedback;
  }

  /** Brings the rollups up to date with stored call records and with summaries the OTLP roll-up rewrote. */
  applyCalls(
    project: string,
    items: readonly CallItem[],
    summaries: ReadonlyMap<string, CallSummary> = new Map(),
  ): Promise<void> {
    return this.#queue.run(project, async () => {
      const ids = [...new Set([...items.map((item) => item.id), ...summaries.keys()])];
      const batch = new BatchRollup(await this.#read(project, ids), items, summaries);
      const { delta, writes } = batch.finish(await this.#feedbackOf(project, batch.moved));
      await this.#writeFacts(project, writes);
      await this.#insertDelta(project, delta);
    });
  }

  /** Counts feedback just stored (new ids only); feedback on a call not started yet waits for it. */
  applyFeedback(project: string, items: readonly FeedbackItem[]): Promise<void> {
    if (items.length === 0) return Promise.resolve();
    return this.#queue.run(project, async () => {
      const stored = await this.#read(
        project,
        items.map((item) => item.callId),
      );
      const delta = new RollupDelta();
      const waiting: FactsWrite[] = [];
      for (const item of items) {
        const known = stored.get(item.callId);
        if (known?.facts.start)
          delta.addFeedback(known.facts.start, [{ name: item.name, value: item.value }], 1);
        else if (known?.waiting !== true && !waiting.some((w) => w.id === item.callId)) {
          waiting.push({
            id: item.callId,
            facts: known?.facts ?? { start: null, end: null },
            waiting: true,
            completed: known?.completed ?? false,
            complete: false,
          });
        }
      }
      await this.#writeFacts(project, waiting);
      await this.#insertDelta(project, delta);
    });
  }

  /** Takes calls out of the rollups with their feedback and forgets their facts and completion. */
  forgetCalls(project: string, ids: readonly string[]): Promise<number> {
    return this.#queue.run(project, async () => {
      const before = await this.#read(project, ids);
      if (before.size === 0) return 0;
      const started = [...before].filter(([, stored]) => stored.facts.start !== null).map(([id]) => id);
      await this.#insertDelta(project, forgetDelta(before, await this.#feedbackOf(project, started)));
      const known = inList([...before.keys()]);
      // Mutations: rare (deletion on request), and the rows must be gone, not shadowed.
      for (const table of [this.#tables.facts, this.#tables.completions]) {
        await this.#connection.commandOnEveryHost(
          `ALTER TABLE ${this.#tables.local(table)} DELETE WHERE project = ${sqlLiteral(project)} AND id IN ${known}`,
        );
      }
      return before.size;
    });
  }

  async #read(project: string, ids: readonly string[]): Promise<Map<string, StoredFacts>> {
    const stored = new Map<string, StoredFacts>();
    if (ids.length === 0) return stored;
    const rows = await this.#connection.rows<FactsRow>(`
      SELECT id, argMax(start, seq) AS r_start, argMax(end, seq) AS r_end,
        argMax(feedback_waiting, seq) AS r_waiting, max(completed) AS r_completed
      FROM ${this.#tables.facts} WHERE project = ${sqlLiteral(project)} AND id IN ${inList(ids)} GROUP BY id`);
    for (const row of rows) {
      stored.set(row.id, {
        facts: {
          start: row.r_start === '' ? null : JSON.parse(row.r_start),
          end: row.r_end === '' ? null : JSON.parse(row.r_end),
        },
        waiting: Number(row.r_waiting) === 1,
        completed: Number(row.r_completed) === 1,
      });
    }
    return stored;
  }

  async #feedbackOf(project: string, ids: readonly string[]): Promise<Map<string, FeedbackFact[]>> {
    const facts = new Map<string, FeedbackFact[]>();
    if (ids.length === 0) return facts;
    for (const [id, list] of await this.#feedback.forCalls(project, ids)) {
      facts.set(
        id,
        list.map((f) => ({ name: f.name, value: f.value })),
      );
    }
    return facts;
  }

  async #writeFacts(project: string, writes: readonly FactsWrite[]): Promise<void> {
    if (writes.length === 0) return;
    const seq = nextSeq();
    await this.#connection.insertColumns(
      this.#tables.facts,
      FACTS_COLUMNS,
      writes.map((write) => ({
        project,
        id: write.id,
        start: write.facts.start === null ? '' : JSON.stringify(write.facts.start),
        end: write.facts.end === null ? '' : JSON.stringify(write.facts.end),
        feedback_waiting: write.waiting ? 1 : 0,
        completed: write.completed ? 1 : 0,
        seq,
      })),
      this.#insertSettings,
    );
    const completed = writes.filter((write) => write.complete);
    if (completed.length > 0) {
      await this.#connection.insertColumns(
        this.#tables.completions,
        COMPLETIONS_COLUMNS,
        completed.map((write) => ({ project, seq: nextSeq(), id: write.id })),
        this.#insertSettings,
      );
    }
  }

  /** Change rows: per rollup key, a row of sums (`hist` '') and a row per histogram bin; per feedback key, likewise per value. */
  async #insertDelta(project: string, delta: RollupDelta): Promise<void> {
    const calls: CallChangeRow[] = [];
    for (const { key, values } of delta.callChanges()) {
      calls.push(callChangeRow(project, key, '', 0, values.n, values));
      for (const [bin, count] of values.latency) calls.push(callChangeRow(project, key, LATENCY, bin, count));
      for (const [bin, count] of values.ttft) calls.push(callChangeRow(project, key, TTFT, bin, count));
    }
    const feedback: Record<string, unknown>[] = [];
    for (const { key, values } of delta.feedbackChanges()) {
      const base = {
        project,
        cut: key.cut,
        op: key.op,
        level: key.level,
        t: key.t,
        root: key.root ? 1 : 0,
        name: key.name,
        value: key.value,
      };
      feedback.push({
        ...base,
        dvalue: '',
        n: values.n,
        numeric_n: values.numericN,
        sum: values.sum,
        sum_squares: values.sumSquares,
      });
      for (const [dvalue, count] of values.distribution) {
        feedback.push({ ...base, dvalue, n: count, numeric_n: 0, sum: 0, sum_squares: 0 });
      }
    }
    await this.#connection.insertColumns(
      this.#tables.callChanges,
      CALL_CHANGE_COLUMNS,
      calls,
      this.#insertSettings,
    );
    await this.#connection.insertColumns(
      this.#tables.feedbackChanges,
      FEEDBACK_CHANGE_COLUMNS,
      feedback,
      this.#insertSettings,
    );
  }
}
