// The query bench's profile on ClickHouse: the plan and the rows read of each
// case's list query, for bench/out/query-profile-*.txt and the "Rows read" column.

/**
 * `EXPLAIN indexes = 1` and `EXPLAIN ESTIMATE` of each case's first list
 * query (the walk over call_list, from `captured`: label → SQL run), on
 * `engine` after the timings; sets `rowsRead` on each result, closes the
 * engine and returns the plans as text.
 */
export async function profileQueries(engine, captured, measured) {
  const out = [];
  for (const result of measured) {
    const walk = (captured.get(result.label) ?? []).find(
      (sql) => sql.includes('call_list') && sql.includes('ORDER BY'),
    );
    if (walk === undefined) continue;
    const plan = await engine.rows(`EXPLAIN indexes = 1 ${walk}`);
    const estimate = await engine.rows(`EXPLAIN ESTIMATE ${walk}`);
    result.rowsRead = estimate.reduce((sum, row) => sum + Number(row.rows ?? 0), 0);
    out.push(`## ${result.label}\n\n${walk.trim()}\n\n${plan.map((row) => row.explain).join('\n')}\n`);
  }
  await engine.close();
  return out.join('\n');
}
