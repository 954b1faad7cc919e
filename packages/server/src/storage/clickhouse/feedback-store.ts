import type { ClickHouseSettings } from '@clickhouse/client';
import type { Feedback, FeedbackItem, FeedbackValue } from '@weft/protocol';
import { attributeTerm } from '../attribute-terms.js';
import type { ClickHouseConnection, ClickHouseTableTarget } from './clickhouse-connection.js';
import { inList, sqlLiteral } from './sql-literal.js';
import { nextSeq } from './write-sequence.js';

/** Aliases carry an `f_` prefix: an alias equal to a column name would replace it in WHERE. */
interface FeedbackRow {
  id: string;
  f_call_id: string;
  f_name: string;
  f_kind: 's' | 'n' | 'b';
  f_value: string;
  f_comment: string | null;
  f_source: string | null;
  f_created_at: number;
}

/** A feedback value as stored in `value`: the JSON of its indexed form, so filters compare strings. */
export function feedbackValueText(value: FeedbackValue): { kind: 's' | 'n' | 'b'; text: string } {
  const [kind, stored] = attributeTerm(value);
  return { kind, text: JSON.stringify(stored) };
}

/**
 * Feedback on calls in ClickHouse, as `Storage.putFeedback` states: stored once per
 * (project, id), no link to `calls` (feedback may arrive before its call).
 * Known ids are skipped at write; two replicas racing on the same new id may
 * both write it, so reads keep one row per id (the first written).
 */
export class ClickHouseFeedbackStore {
  readonly #connection: ClickHouseConnection;
  readonly #table: string;
  readonly #insertSettings: ClickHouseSettings;

  constructor({ connection, table, insertSettings }: ClickHouseTableTarget) {
    this.#connection = connection;
    this.#table = table;
    this.#insertSettings = insertSettings;
  }

  /** Stores items whose id is new (first of repeats within the batch); returns them. */
  async put(project: string, items: readonly FeedbackItem[]): Promise<FeedbackItem[]> {
    if (items.length === 0) return [];
    const known = await this.#connection.rows<{ id: string }>(
      `SELECT DISTINCT id FROM ${this.#table} WHERE project = ${sqlLiteral(project)} AND id IN ${inList(items.map((i) => i.id))}`,
    );
    const seen = new Set(known.map((r) => r.id));
    const rows: Record<string, string | number | null>[] = [];
    const stored: FeedbackItem[] = [];
    for (const item of items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      stored.push(item);
      const { kind, text } = feedbackValueText(item.value);
      rows.push({
        project,
        call_id: item.callId,
        id: item.id,
        name: item.name,
        kind,
        value: text,
        comment: item.comment ?? null,
        source: item.source ?? null,
        created_at: item.createdAt,
        seq: nextSeq(),
      });
    }
    if (rows.length > 0) await this.#connection.insert(this.#table, rows, this.#insertSettings);
    return stored;
  }

  /** Feedback of each of `callIds` (absent ids: none), oldest first. */
  async forCalls(project: string, callIds: readonly string[]): Promise<Map<string, Feedback[]>> {
    const byCall = new Map<string, Feedback[]>();
    if (callIds.length === 0) return byCall;
    const rows = await this.#connection.rows<FeedbackRow>(`
      SELECT id, argMin(call_id, seq) AS f_call_id, argMin(name, seq) AS f_name, argMin(kind, seq) AS f_kind,
        argMin(value, seq) AS f_value, argMin(comment, seq) AS f_comment, argMin(source, seq) AS f_source,
        argMin(created_at, seq) AS f_created_at, min(seq) AS f_first_seq
      FROM ${this.#table} WHERE project = ${sqlLiteral(project)} AND call_id IN ${inList(callIds)}
      GROUP BY id ORDER BY f_created_at, f_first_seq`);
    for (const row of rows) {
      const list = byCall.get(row.f_call_id) ?? [];
      if (list.length === 0) byCall.set(row.f_call_id, list);
      list.push(feedbackFromRow(row));
    }
    return byCall;
  }

  /** `id IN (…)` of the calls having feedback that matches `filter` (any feedback when empty). */
  matchingCalls(project: string, filter: { name?: string; value?: FeedbackValue }): string {
    const terms = [`project = ${sqlLiteral(project)}`];
    if (filter.name !== undefined) terms.push(`name = ${sqlLiteral(filter.name)}`);
    if (filter.value !== undefined) {
      const { kind, text } = feedbackValueText(filter.value);
      terms.push(`kind = ${sqlLiteral(kind)}`, `value = ${sqlLiteral(text)}`);
    }
    return `id IN (SELECT call_id FROM ${this.#table} WHERE ${terms.join(' AND ')})`;
  }
}

function feedbackFromRow(row: FeedbackRow): Feedback {
  const stored = JSON.parse(row.f_value) as string | number;
  const value: FeedbackValue = row.f_kind === 'b' ? stored === 1 : stored;
  const feedback: Feedback = { id: row.id, name: row.f_name, value, createdAt: Number(row.f_created_at) };
  if (row.f_comment !== null) feedback.comment = row.f_comment;
  if (row.f_source !== null) feedback.source = row.f_source;
  return feedback;
}
