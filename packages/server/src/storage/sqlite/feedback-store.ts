import type { Database, Statement } from 'better-sqlite3';
import type { Feedback, FeedbackItem, FeedbackValue } from '@weft/protocol';
import { attributeTerm } from '../attribute-terms.js';

interface FeedbackRow {
  call_id: string;
  id: string;
  name: string;
  kind: 's' | 'n' | 'b';
  value: string | number;
  comment: string | null;
  source: string | null;
  created_at: number;
}

/** Most call ids whose feedback one statement reads (a page of calls is at most 1,000). */
const MAX_IDS = 1_000;

/**
 * Feedback on calls in SQLite. Stored by its own id (a retried item is a
 * no-op), with no link to the calls table: feedback may arrive before its
 * call and is attached whenever the call is read.
 */
export class SqliteFeedbackStore {
  readonly #insert: (project: string, items: readonly FeedbackItem[]) => number;
  readonly #forCalls: Statement;

  constructor(db: Database) {
    const insert =
      db.prepare(`INSERT INTO feedback (project, id, call_id, name, kind, value, comment, source, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project, id) DO NOTHING`);
    this.#insert = db.transaction((project: string, items: readonly FeedbackItem[]) => {
      let stored = 0;
      for (const item of items) {
        const [kind, value] = attributeTerm(item.value);
        stored += insert.run(
          project,
          item.id,
          item.callId,
          item.name,
          kind,
          value,
          item.comment ?? null,
          item.source ?? null,
          item.createdAt,
        ).changes;
      }
      return stored;
    });
    this.#forCalls =
      db.prepare(`SELECT call_id, id, name, kind, value, comment, source, created_at FROM feedback
      WHERE project = ? AND call_id IN (SELECT value FROM json_each(?)) ORDER BY created_at, rowid`);
  }

  /** Stores items once by id, in one transaction; returns how many were new. */
  put(project: string, items: readonly FeedbackItem[]): number {
    return this.#insert(project, items);
  }

  /** Feedback of each of `callIds` (absent ids: none), oldest first. */
  forCalls(project: string, callIds: readonly string[]): Map<string, Feedback[]> {
    const byCall = new Map<string, Feedback[]>();
    for (let start = 0; start < callIds.length; start += MAX_IDS) {
      const ids = JSON.stringify(callIds.slice(start, start + MAX_IDS));
      for (const row of this.#forCalls.all(project, ids) as FeedbackRow[]) {
        const list = byCall.get(row.call_id) ?? [];
        if (list.length === 0) byCall.set(row.call_id, list);
        list.push(feedbackFromRow(row));
      }
    }
    return byCall;
  }
}

function feedbackFromRow(row: FeedbackRow): Feedback {
  const value: FeedbackValue = row.kind === 'b' ? row.value === 1 : row.value;
  const feedback: Feedback = { id: row.id, name: row.name, value, createdAt: row.created_at };
  if (row.comment !== null) feedback.comment = row.comment;
  if (row.source !== null) feedback.source = row.source;
  return feedback;
}
