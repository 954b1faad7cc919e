import type { Database, Statement } from 'better-sqlite3';
import type {
  ProjectListResponse,
  SessionQueryParsed,
  SessionQueryResponse,
  SessionSummary,
} from '@weft/protocol';
import { decodeCursor, encodeCursor } from '../cursor.js';

interface SessionRow {
  session_id: string;
  turns: number;
  first_started_at: number;
  last_activity_at: number;
  total_tokens: number | null;
  cost_usd: number | null;
  errors: number;
}

const CURSOR_SORT = 'sessions:lastActivity:desc';

/**
 * Session totals, aggregated at read time from the calls carrying a session
 * id (index `calls_session`). Paged by keyset on (last activity, session id),
 * most recently active first.
 */
export class SqliteSessionQuery {
  readonly #page: Statement;
  readonly #projects: Statement;

  constructor(db: Database) {
    // Turns, tokens and cost count root calls only: a root's summary already
    // includes its descendants' usage.
    this.#page = db.prepare(`
      SELECT session_id,
        SUM(parent_id IS NULL) AS turns,
        MIN(started_at) AS first_started_at,
        MAX(COALESCE(ended_at, started_at)) AS last_activity_at,
        SUM(CASE WHEN parent_id IS NULL THEN total_tokens END) AS total_tokens,
        SUM(CASE WHEN parent_id IS NULL THEN cost_usd END) AS cost_usd,
        SUM(status = 'error') AS errors
      FROM calls
      WHERE project = @project AND session_id IS NOT NULL AND has_start = 1
      GROUP BY session_id
      HAVING (@after IS NULL OR last_activity_at >= @after)
        AND (@key IS NULL OR (last_activity_at, session_id) < (@key, @id))
      ORDER BY last_activity_at DESC, session_id DESC
      LIMIT @limit`);
    this.#projects = db.prepare(`
      SELECT project AS name, SUM(n) AS call_count, MAX(last) AS last_call_at FROM (
        SELECT project, COUNT(*) AS n, MAX(started_at) AS last FROM calls WHERE has_start = 1 GROUP BY project
        UNION ALL SELECT DISTINCT project, 0, NULL FROM objects
      ) GROUP BY project ORDER BY project`);
  }

  run(query: SessionQueryParsed): SessionQueryResponse {
    const position = query.cursor === undefined ? undefined : decodeCursor(query.cursor, CURSOR_SORT);
    const rows = this.#page.all({
      project: query.project,
      after: query.activeAfter ?? null,
      key: position?.key ?? null,
      id: position?.id ?? null,
      limit: query.limit + 1,
    }) as SessionRow[];
    const more = rows.length > query.limit;
    const page = more ? rows.slice(0, query.limit) : rows;
    const last = page.at(-1);
    return {
      sessions: page.map(sessionFromRow),
      nextCursor:
        more && last ? encodeCursor(CURSOR_SORT, { key: last.last_activity_at, id: last.session_id }) : null,
    };
  }

  projects(): ProjectListResponse['projects'] {
    return (this.#projects.all() as { name: string; call_count: number; last_call_at: number | null }[]).map(
      (r) => ({
        name: r.name,
        callCount: r.call_count,
        lastCallAt: r.last_call_at,
      }),
    );
  }
}

function sessionFromRow(row: SessionRow): SessionSummary {
  const summary: SessionSummary = {
    sessionId: row.session_id,
    turns: row.turns,
    firstStartedAt: row.first_started_at,
    lastActivityAt: row.last_activity_at,
    totalTokens: row.total_tokens ?? 0,
    errors: row.errors,
  };
  if (row.cost_usd !== null) summary.costUsd = row.cost_usd;
  return summary;
}
