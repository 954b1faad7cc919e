import type { Database, Statement } from 'better-sqlite3';
import type { CallItem, CallSummary, Feedback, FeedbackItem } from '@weft/protocol';
import {
  BatchRollup,
  type CallRollupChange,
  type FeedbackFact,
  type FeedbackRollupChange,
  forgetDelta,
  RollupDelta,
  type StoredFacts,
} from '../rollup/index.js';
import { callRollupRow, callRollupValues, feedbackRollupRow, feedbackRollupValues } from './rollup-rows.js';

interface FactsRow {
  id: string;
  start: string | null;
  end: string | null;
  feedback_waiting: number;
  completed: number;
}

/** Where the store reads a call's feedback when the call's start moves it (the feedback table). */
export interface FeedbackSource {
  forCalls(project: string, callIds: readonly string[]): Map<string, Feedback[]>;
}

/**
 * Keeps the metrics rollups (rollup-schema.ts) in step with ingest, inside
 * the transaction that stores the batch: it reads the batch's calls' facts,
 * merges the records in, and adds to the rollups the difference between
 * each changed call's contribution after and before (`RollupDelta`). A
 * re-sent record leaves the facts equal and changes nothing; records in any
 * order end at the same facts, so at the same rollups.
 */
export class SqliteRollupStore {
  readonly #readFacts: Statement;
  readonly #writeFacts: Statement;
  readonly #markWaiting: Statement;
  readonly #complete: Statement;
  readonly #readCallRow: Statement;
  readonly #writeCallRow: Statement;
  readonly #deleteCallRow: Statement;
  readonly #readFeedbackRow: Statement;
  readonly #writeFeedbackRow: Statement;
  readonly #deleteFeedbackRow: Statement;
  readonly #deleteFacts: Statement;
  readonly #deleteCompletion: Statement;
  readonly #knownFeedback: Statement;
  readonly #dropBefore: Statement[];
  readonly #feedback: FeedbackSource;

  constructor(db: Database, { feedback }: { feedback: FeedbackSource }) {
    this.#feedback = feedback;
    this.#readFacts = db.prepare(
      'SELECT id, start, end, feedback_waiting, completed FROM rollup_facts WHERE project = ? AND id IN (SELECT value FROM json_each(?))',
    );
    // One statement run per changed call, its facts bound as JSON text: half
    // the CPU of one statement per batch over a JSON array of them (json_each
    // and `->` parse and re-render every element), measured with
    // bench/ingest-rollup-facts.mjs (6.4 against 12.8 µs per call, load 19).
    this.#writeFacts =
      db.prepare(`INSERT INTO rollup_facts (project, id, start, end, feedback_waiting, completed)
      VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (project, id) DO UPDATE SET start = excluded.start, end = excluded.end,
      feedback_waiting = excluded.feedback_waiting, completed = excluded.completed`);
    this.#markWaiting = db.prepare(`INSERT INTO rollup_facts (project, id, feedback_waiting) VALUES (?, ?, 1)
      ON CONFLICT (project, id) DO UPDATE SET feedback_waiting = 1`);
    // In the array's order: `seq` gives the order calls completed in.
    this.#complete = db.prepare(
      'INSERT INTO call_completions (project, id) SELECT @project, c.value FROM json_each(@ids) c ORDER BY c.key',
    );
    const callKey =
      'project = ? AND cut = ? AND op = ? AND level = ? AND t = ? AND root = ? AND status = ? AND value = ?';
    this.#readCallRow = db.prepare(`SELECT * FROM call_rollups WHERE ${callKey}`);
    this.#writeCallRow = db.prepare(
      `INSERT OR REPLACE INTO call_rollups VALUES (${Array.from({ length: 21 }, () => '?').join(', ')})`,
    );
    this.#deleteCallRow = db.prepare(`DELETE FROM call_rollups WHERE ${callKey}`);
    const feedbackKey =
      'project = ? AND cut = ? AND op = ? AND level = ? AND t = ? AND root = ? AND name = ? AND value = ?';
    this.#readFeedbackRow = db.prepare(`SELECT * FROM feedback_rollups WHERE ${feedbackKey}`);
    this.#writeFeedbackRow = db.prepare(
      `INSERT OR REPLACE INTO feedback_rollups VALUES (${Array.from({ length: 13 }, () => '?').join(', ')})`,
    );
    this.#deleteFeedbackRow = db.prepare(`DELETE FROM feedback_rollups WHERE ${feedbackKey}`);
    this.#deleteFacts = db.prepare('DELETE FROM rollup_facts WHERE project = ? AND id = ?');
    this.#deleteCompletion = db.prepare('DELETE FROM call_completions WHERE project = ? AND id = ?');
    this.#knownFeedback = db
      .prepare('SELECT id FROM feedback WHERE project = ? AND id IN (SELECT value FROM json_each(?))')
      .pluck();
    // A bucket ends at t + its level's width: one range per level and table,
    // on the (project, level, t) indexes (migration 14). Facts are dropped by
    // their call's start time, found through calls_started: a call's stored
    // start is the one its facts hold (both take the last start record).
    const buckets = (table: string, level: 'm' | 'h', width: number) =>
      db.prepare(
        `DELETE FROM ${table} WHERE project = @project AND level = '${level}' AND t <= @before - ${width}`,
      );
    this.#dropBefore = [
      buckets('call_rollups', 'm', 60_000),
      buckets('call_rollups', 'h', 3_600_000),
      buckets('feedback_rollups', 'm', 60_000),
      buckets('feedback_rollups', 'h', 3_600_000),
      db.prepare(`DELETE FROM rollup_facts WHERE project = @project AND id IN (
        SELECT id FROM calls WHERE project = @project AND started_at < @before)`),
    ];
  }

  /** The items whose id is not stored yet (the first of ids repeated within `items`): the ones `applyFeedback` counts. */
  newFeedback(project: string, items: readonly FeedbackItem[]): FeedbackItem[] {
    const known = new Set(
      this.#knownFeedback.all(project, JSON.stringify(items.map((item) => item.id))) as string[],
    );
    return items.filter((item) => {
      if (known.has(item.id)) return false;
      known.add(item.id);
      return true;
    });
  }

  /** Retention: drops rollup rows of buckets ending at or before `beforeMs`, and the facts of calls started before it. */
  dropBefore(project: string, beforeMs: number): void {
    for (const statement of this.#dropBefore) statement.run({ project, before: beforeMs });
  }

  /**
   * Brings the rollups up to date with a batch of call records (already
   * validated) and with summaries the OTLP usage roll-up recomputed. Call it
   * inside the batch's transaction.
   */
  applyCalls(
    project: string,
    items: readonly CallItem[],
    summaries: ReadonlyMap<string, CallSummary> = new Map(),
  ): void {
    const ids = [...new Set([...items.map((item) => item.id), ...summaries.keys()])];
    const batch = new BatchRollup(this.#read(project, ids), items, summaries);
    const { delta, writes } = batch.finish(this.#feedbackOf(project, batch.moved));
    if (writes.length > 0) {
      const completed = writes.filter((write) => write.complete).map((write) => write.id);
      if (completed.length > 0) this.#complete.run({ project, ids: JSON.stringify(completed) });
      for (const { id, facts, waiting, completed } of writes) {
        this.#writeFacts.run(
          project,
          id,
          facts.start === null ? null : JSON.stringify(facts.start),
          facts.end === null ? null : JSON.stringify(facts.end),
          waiting ? 1 : 0,
          completed ? 1 : 0,
        );
      }
    }
    this.#applyDelta(project, delta);
  }

  /** Counts feedback items just stored (new ids only) under their calls; feedback on a call not started yet waits for it. */
  applyFeedback(project: string, items: readonly FeedbackItem[]): void {
    if (items.length === 0) return;
    const stored = this.#read(
      project,
      items.map((item) => item.callId),
    );
    const delta = new RollupDelta();
    for (const item of items) {
      const start = stored.get(item.callId)?.facts.start ?? null;
      if (start === null) this.#markWaiting.run(project, item.callId);
      else delta.addFeedback(start, [feedbackFact(item)], 1);
    }
    this.#applyDelta(project, delta);
  }

  /**
   * Takes calls out of the rollups (their contribution and their feedback's)
   * and forgets their facts and completion: what deletion of calls on
   * request must call. Returns how many had facts.
   */
  forgetCalls(project: string, ids: readonly string[]): number {
    const before = this.#read(project, ids);
    const started = [...before].filter(([, stored]) => stored.facts.start !== null).map(([id]) => id);
    this.#applyDelta(project, forgetDelta(before, this.#feedbackOf(project, started)));
    for (const id of before.keys()) {
      this.#deleteFacts.run(project, id);
      this.#deleteCompletion.run(project, id);
    }
    return before.size;
  }

  #feedbackOf(project: string, ids: readonly string[]): Map<string, FeedbackFact[]> {
    const facts = new Map<string, FeedbackFact[]>();
    if (ids.length === 0) return facts;
    for (const [id, list] of this.#feedback.forCalls(project, ids)) facts.set(id, list.map(feedbackFact));
    return facts;
  }

  #read(project: string, ids: readonly string[]): Map<string, StoredFacts> {
    const stored = new Map<string, StoredFacts>();
    for (const row of this.#readFacts.all(project, JSON.stringify(ids)) as FactsRow[]) {
      stored.set(row.id, {
        facts: {
          start: row.start === null ? null : JSON.parse(row.start),
          end: row.end === null ? null : JSON.parse(row.end),
        },
        waiting: row.feedback_waiting === 1,
        completed: row.completed === 1,
      });
    }
    return stored;
  }

  #applyDelta(project: string, delta: RollupDelta): void {
    for (const change of delta.callChanges()) this.#applyCallChange(project, change);
    for (const change of delta.feedbackChanges()) this.#applyFeedbackChange(project, change);
  }

  #applyCallChange(project: string, { key, values }: CallRollupChange): void {
    const params = [project, key.cut, key.op, key.level, key.t, key.root ? 1 : 0, key.status, key.value];
    const row = callRollupValues(this.#readCallRow.get(...params) as Record<string, unknown> | undefined);
    const next = row.add(values);
    if (next === undefined) this.#deleteCallRow.run(...params);
    else this.#writeCallRow.run(...callRollupRow(project, key, next));
  }

  #applyFeedbackChange(project: string, { key, values }: FeedbackRollupChange): void {
    const params = [project, key.cut, key.op, key.level, key.t, key.root ? 1 : 0, key.name, key.value];
    const row = feedbackRollupValues(
      this.#readFeedbackRow.get(...params) as Record<string, unknown> | undefined,
    );
    const next = row.add(values);
    if (next === undefined) this.#deleteFeedbackRow.run(...params);
    else this.#writeFeedbackRow.run(...feedbackRollupRow(project, key, next));
  }
}

function feedbackFact(feedback: Pick<Feedback, 'name' | 'value'>): FeedbackFact {
  return { name: feedback.name, value: feedback.value };
}
