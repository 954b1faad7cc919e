import { createTableStatements, type TableSpec } from './schema.js';

/**
 * Table added by migration 7: what calls, values, objects and tables refer
 * to (`ClickHouseContentRefStore`). Keyed by what is referred to, so "who
 * still refers to this digest?" reads one range; a target's rows share a
 * shard.
 */
export const CONTENT_REFS: TableSpec = {
  name: 'content_refs',
  columns: 'project String, kind String, target String, source String, created_at Float64',
  orderBy: '(project, kind, target, source)',
  shardBy: 'cityHash64(project, target)',
};

/**
 * Migration 7: the reference table, and pins (source `p`) for what was
 * stored before it, whose references were never recorded: every value and
 * file (so no collection removes one a call stored earlier still needs),
 * and the calls dataset rows were made from (kept by retention). A value or
 * file stored before this version is therefore kept when the calls that
 * used it are deleted (docs/operations.md says so). Re-running it adds
 * rows with the same keys, which merge away; reads count distinct sources.
 */
export function lifecycleStatements(database: string, cluster: string | undefined): string[] {
  const refs = `${database}.content_refs`;
  const columns = '(project, kind, target, source, created_at)';
  return [
    ...createTableStatements(database, CONTENT_REFS, cluster),
    `INSERT INTO ${refs} ${columns} SELECT project, 'v', digest, 'p', 0 FROM ${database}.call_values GROUP BY project, digest`,
    `INSERT INTO ${refs} ${columns} SELECT project, 'f', digest, 'p', 0 FROM ${database}.files GROUP BY project, digest`,
    `INSERT INTO ${refs} ${columns} SELECT project, 'c', id, 'p', 0 FROM (
       SELECT project, arrayJoin(extractAll(value, 'weft:///[A-Za-z0-9._-]+/call/([0-9a-fA-F-]+)')) AS id FROM ${database}.table_rows
     ) GROUP BY project, id`,
  ];
}
