import { ATTRIBUTE_TERMS_COLUMN, KEY_COLUMNS, SEARCH_TEXT_COLUMN, TOTALS_COLUMNS } from './call-columns.js';
import { START } from './call-halves.js';
import { callListStatements, listTimeSql } from './list-schema.js';
import type { SchemaProfile } from './schema-profile.js';

/** `2^52`, the rank of a row with both halves (see `callListRow`). */
const ENDED_RANK = '4503599627370496';

/**
 * Migration 5's statements: `call_list` (on a cluster a local table on each
 * shard plus a `Distributed` one over them, sharded like `calls` so a
 * call's list row sits beside its halves), then one fold of the calls
 * stored before it into list rows. The fold runs on each host's own tables
 * once, at the upgrade; no read folds afterwards. Calls stored before
 * migration 2 match text by their names only, and diacritics of calls
 * stored before this release are not folded (18.16 cannot).
 */
export function callListMigration(
  database: string,
  cluster: string | undefined,
  profile: SchemaProfile,
): string[] {
  const local = cluster === undefined ? 'call_list' : 'call_list_local';
  const calls = cluster === undefined ? 'calls' : 'calls_local';
  const time = listTimeSql(profile);
  const statements = [callListStatements(database, local, profile, 'ReplacingMergeTree(version)')];
  if (cluster !== undefined) {
    statements.push(
      `CREATE TABLE IF NOT EXISTS ${database}.call_list AS ${database}.${local} ENGINE = Distributed(${cluster}, ${database}, ${local}, cityHash64(project, id))`,
    );
  }
  statements.push(`
    INSERT INTO ${database}.${local} (project, started_at, id, version, trace_id, parent_id, op_name, op_plain,
      display_name, has_display, session_id, status, has_end, ended_at, latency_key, total_tokens, cost_usd,
      attr_terms, search)
    SELECT project, ${time.fromMillis('f_started_at')}, id, if(f_has_end = 1, ${ENDED_RANK}, 0) + f_seq,
      f_trace_id, f_parent_id, f_op_name, f_op_plain, f_display_name, f_has_display, f_session_id, f_status,
      f_has_end, ${time.fromMillis('f_ended_at')}, f_latency_key, if(f_has_end = 1, f_total_tokens, -1),
      if(f_has_end = 1, f_cost_usd, -1), f_attr_terms,
      arrayStringConcat(extractAll(lowerUTF8(f_search), '[\\\\p{L}\\\\p{N}\\\\p{Co}]+'), ' ')
    FROM (
      SELECT project, ${KEY_COLUMNS}, ${ATTRIBUTE_TERMS_COLUMN}, ${SEARCH_TEXT_COLUMN}, ${TOTALS_COLUMNS},
        argMaxIf(has_display, seq, half = ${START}) AS f_has_display, max(seq) AS f_seq
      FROM ${database}.${calls} GROUP BY project, id HAVING f_has_start = 1
    )`);
  return statements;
}
