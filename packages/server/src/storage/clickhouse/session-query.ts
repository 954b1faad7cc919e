import type {
  ProjectListResponse,
  SessionQueryParsed,
  SessionQueryResponse,
  SessionSummary,
} from '@weft/protocol';
import { InvalidRequestError } from '../../errors/index.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { KEY_COLUMNS, TOTALS_COLUMNS } from './call-columns.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import type { ListTimeSql } from './list-schema.js';
import { compareBytes } from './object-store.js';
import { sqlLiteral } from './sql-literal.js';

interface SessionRow {
  session_id: string;
  turns: number | string;
  first_started_at: number;
  last_activity_at: number;
  total_tokens: number;
  cost_count: number | string;
  cost_usd: number;
  errors: number | string;
}

/** The sessions cursor's sort name: the same in every engine, so a cursor means the same on all. */
const CURSOR_SORT = 'sessions:lastActivity:desc';

/**
 * Session totals as `Storage.querySessions` states them,
 * aggregated at read time over the folded calls that carry a session id:
 * turns, tokens and cost count root calls only (a root's summary includes
 * its descendants), errors count every call. Keyset-paged on (last
 * activity, session id), most recently active first.
 */
export class ClickHouseSessionQuery {
  readonly #connection: ClickHouseConnection;
  readonly #calls: string;
  readonly #list: string;
  readonly #time: ListTimeSql;
  readonly #objects: string;

  constructor({
    connection,
    calls,
    list,
    time,
    objects,
  }: { connection: ClickHouseConnection; calls: string; list: string; time: ListTimeSql; objects: string }) {
    this.#connection = connection;
    this.#calls = calls;
    this.#list = list;
    this.#time = time;
    this.#objects = objects;
  }

  async run(query: SessionQueryParsed): Promise<SessionQueryResponse> {
    const project = sqlLiteral(query.project);
    const having: string[] = [];
    if (query.activeAfter !== undefined) having.push(`last_activity_at >= ${sqlLiteral(query.activeAfter)}`);
    if (query.cursor !== undefined) {
      const position = decodeCursor(query.cursor, CURSOR_SORT);
      if (typeof position.key !== 'number') {
        throw new InvalidRequestError(
          [{ path: 'cursor', message: 'not a cursor returned by this server' }],
          'query',
        );
      }
      const key = sqlLiteral(position.key);
      having.push(
        `(last_activity_at < ${key} OR (last_activity_at = ${key} AND session_id < ${sqlLiteral(position.id)}))`,
      );
    }
    // Without an end, end-half aggregates read 0 (not -1): totals also need `f_has_end = 1`.
    const rows = await this.#connection.rows<SessionRow>(`
      SELECT f_session_id AS session_id,
        sum(f_parent_id = '') AS turns,
        min(f_started_at) AS first_started_at,
        max(if(f_has_end = 1, f_ended_at, f_started_at)) AS last_activity_at,
        sumIf(f_total_tokens, f_parent_id = '' AND f_has_end = 1 AND f_total_tokens >= 0) AS total_tokens,
        countIf(f_parent_id = '' AND f_has_end = 1 AND f_cost_usd >= 0) AS cost_count,
        sumIf(f_cost_usd, f_parent_id = '' AND f_has_end = 1 AND f_cost_usd >= 0) AS cost_usd,
        sum(f_status = 'error') AS errors
      FROM (
        SELECT ${KEY_COLUMNS}, ${TOTALS_COLUMNS} FROM ${this.#calls}
        WHERE project = ${project}
          AND id IN (SELECT id FROM ${this.#calls} WHERE project = ${project} AND half = 1 AND session_id != '')
        GROUP BY id HAVING f_has_start = 1 AND f_session_id != ''
      )
      GROUP BY session_id${having.length === 0 ? '' : ` HAVING ${having.join(' AND ')}`}
      ORDER BY last_activity_at DESC, session_id DESC LIMIT ${sqlLiteral(query.limit + 1)}`);
    const more = rows.length > query.limit;
    const page = more ? rows.slice(0, query.limit) : rows;
    const last = page.at(-1);
    return {
      sessions: page.map(sessionFromRow),
      nextCursor:
        more && last
          ? encodeCursor(CURSOR_SORT, { key: Number(last.last_activity_at), id: last.session_id })
          : null,
    };
  }

  /** Every project with calls (whose start arrived) or objects, by name. */
  async projects(): Promise<ProjectListResponse['projects']> {
    const [calls, objects] = await Promise.all([
      // One list row per call, but a call written again may have a copy not merged yet: count ids.
      this.#connection.rows<{ name: string; call_count: number | string; last_call_us: number | string }>(`
        SELECT project AS name, uniqExact(id) AS call_count, max(${this.#time.micros('started_at')}) AS last_call_us
        FROM ${this.#list} GROUP BY project`),
      this.#connection.rows<{ name: string }>(`SELECT DISTINCT project AS name FROM ${this.#objects}`),
    ]);
    const byName = new Map<string, ProjectListResponse['projects'][number]>();
    for (const { name } of objects) byName.set(name, { name, callCount: 0, lastCallAt: null });
    for (const row of calls)
      byName.set(row.name, {
        name: row.name,
        callCount: Number(row.call_count),
        lastCallAt: Number(row.last_call_us) / 1_000,
      });
    return [...byName.values()].sort((a, b) => compareBytes(a.name, b.name));
  }
}

function sessionFromRow(row: SessionRow): SessionSummary {
  const summary: SessionSummary = {
    sessionId: row.session_id,
    turns: Number(row.turns),
    firstStartedAt: Number(row.first_started_at),
    lastActivityAt: Number(row.last_activity_at),
    totalTokens: Number(row.total_tokens),
    errors: Number(row.errors),
  };
  if (Number(row.cost_count) > 0) summary.costUsd = Number(row.cost_usd);
  return summary;
}
