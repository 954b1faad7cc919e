// The query bench's `--generate` load on ClickHouse (servers or chDB): a
// seed of calls goes through the engine's own ingest, and every later call
// is a copy of a seed row made inside the engine (INSERT … SELECT), with the
// id, times, display name, session and search words a fresh ingest of that
// call would write. Call n's attributes repeat every 3,000 calls (env n % 2,
// tier n % 3, user n % 1,000, tag n % 20, op n % 4, latency n % 50) and its
// text is drawn from a generator seeded with n % seed size, so a copy of
// seed call n % S IS call n; `checkGenerated` proves it on a slice by
// ingesting the same calls for real and comparing every column.

/** Every per-call cycle of the bench's attributes divides this; the seed size must be a multiple of it. */
export const ATTRIBUTE_PERIOD = 3_000;

/** 2^52: `call_list.version` is `has_end · 2^52 + seq`. */
const HAS_END_UNIT = 4_503_599_627_370_496;

/**
 * Call n's id: a 32-bit multiplicative hash of n (so ids spread like UUIDs
 * over the id-ordered tables), then n in decimal; UUID-shaped.
 */
export function numberedId(n) {
  const hash = Number((BigInt(n) * 2_654_435_761n) % 4_294_967_296n);
  return `${hash.toString(16).padStart(8, '0')}-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

/** `numberedId` in SQL, of a UInt64 expression. */
const idSql = (n) =>
  `concat(leftPad(lower(hex(toUInt32((${n} * 2654435761) % 4294967296))), 8, '0'), '-0000-4000-8000-', leftPad(toString(${n}), 12, '0'))`;

/**
 * A row `numberedId` made (the trace's calls have random ids and are not
 * copied); copies made by an earlier INSERT match too, so the copy also
 * bounds the number to the seed's (without it every later INSERT copied the
 * earlier copies again: duplicate rows, and a load that grew with the square).
 */
const SEED_ROW = "match(id, '^[0-9a-f]{8}-0000-4000-8000-[0-9]{12}$')";

/**
 * What changes from seed call n to call n + k·S, per column of `calls` and
 * of `call_list` (and `call_trace`); a column not named here is copied as it is. `nn` is the
 * new call number, `shift` the milliseconds added to its times.
 */
const CALLS = {
  id: idSql('nn'),
  trace_id: `if(trace_id = '', '', ${idSql('nn')})`,
  event_ms: 'event_ms + shift',
  started_at: 'if(started_at = 0, 0, started_at + shift)',
  ended_at: 'if(ended_at = 0, 0, ended_at + shift)',
  display_name: "if(has_display = 1, concat(op_plain, ' #', toString(nn)), display_name)",
  session_id: "if(session_id = '', '', concat('s', toString(intDiv(nn, 10))))",
  // foldText of the display name starts the start half's words (ASCII here: lower-cased).
  search_start:
    "if(has_display = 1, concat(lower(concat(op_plain, ' #', toString(nn))), substring(search_start, length(display_name) + 1)), search_start)",
};
const LIST = {
  id: idSql('nn'),
  trace_id: idSql('nn'),
  started_at: 'addMilliseconds(started_at, shift)',
  ended_at: 'if(has_end = 1, addMilliseconds(ended_at, shift), ended_at)',
  display_name: "concat(op_plain, ' #', toString(nn))",
  session_id: "if(session_id = '', '', concat('s', toString(intDiv(nn, 10))))",
  // The words start with the display name's: the op's words, then n.
  search:
    "concat(replaceAll(op_plain, '.', ' '), ' ', toString(nn), substring(search, length(replaceAll(op_plain, '.', ' ')) + 2 + length(toString(nn - shift))))",
};

const TRACE = {
  id: idSql('nn'),
  trace_id: idSql('nn'),
  started_ms: 'started_ms + shift',
  ended_ms: 'if(ended_ms = 0, 0, ended_ms + shift)',
  display_name:
    "if(has_display = 1, replaceRegexpOne(display_name, ' #[0-9]+$', concat(' #', toString(nn))), display_name)",
  session_id: "if(session_id = '', '', concat('s', toString(intDiv(nn, 10))))",
};

/**
 * Copies the seed calls (numbers 0 … seedCalls − 1) of `project` to the
 * numbers seedCalls … total − 1 (the last block cut short), `copiesPerInsert` seed-sized blocks per
 * INSERT, through `engine.command` (SQL on the bench's engine).
 * @param {{ command(sql: string): Promise<void>, rows(sql: string): Promise<Record<string, unknown>[]> }} engine
 * @param {{ database: string, project: string, seedCalls: number, total: number, copiesPerInsert?: number, onProgress?: (done: number) => void }} options
 */
export async function copySeedCalls(engine, options) {
  const { database, project, seedCalls, total } = options;
  if (seedCalls % ATTRIBUTE_PERIOD !== 0)
    throw new Error(`--seed must be a multiple of ${ATTRIBUTE_PERIOD}, got ${seedCalls}`);
  const per = options.copiesPerInsert ?? 5;
  const selects = {
    calls: await selectList(engine, database, 'calls', CALLS),
    call_list: await selectList(engine, database, 'call_list', LIST),
    call_trace: await selectList(engine, database, 'call_trace', TRACE),
  };
  const blocks = Math.ceil(total / seedCalls);
  for (let k = 1; k < blocks; k += per) {
    const until = Math.min(k + per, blocks);
    for (const [table, list] of Object.entries(selects)) {
      await engine.command(`
        INSERT INTO ${database}.${table} (${list.columns})
        SELECT ${list.values} FROM (
          SELECT *, toUInt64(substring(id, 25)) + k * ${seedCalls} AS nn, k * ${seedCalls} AS shift
          FROM ${database}.${table} ARRAY JOIN range(${k}, ${until}) AS k
          WHERE project = '${project}' AND ${SEED_ROW} AND toUInt64OrZero(substring(id, 25)) < ${seedCalls} AND nn < ${total}
        )`);
    }
    options.onProgress?.(Math.min(until * seedCalls, total));
  }
}

/**
 * Compares the copies of calls from…to−1 in `database` with the same calls
 * ingested for real into `fresh`, every column of `calls`, `call_list` and `call_trace`
 * (`seq` and `version` are write counters: only `version`'s has-end part
 * is compared). Returns the rows found in one and not the other, per table.
 */
export async function checkGenerated(engine, { database, fresh, project, from, to }) {
  const ids = Array.from({ length: to - from }, (_, i) => `'${numberedId(from + i)}'`).join(', ');
  const differences = {};
  for (const table of ['calls', 'call_list', 'call_trace']) {
    const columns = (await engine.rows(`DESCRIBE TABLE ${database}.${table}`))
      .map((c) => String(c.name))
      .filter((name) => name !== 'seq')
      .map((name) => (name === 'version' ? `intDiv(version, ${HAS_END_UNIT}) AS version` : name));
    const rows = (db) =>
      `SELECT ${columns.join(', ')} FROM ${db}.${table} WHERE project = '${project}' AND id IN (${ids})`;
    const [onlyCopied, onlyIngested, counted] = await Promise.all([
      engine.rows(`SELECT count() AS n FROM (${rows(database)} EXCEPT ${rows(fresh)})`),
      engine.rows(`SELECT count() AS n FROM (${rows(fresh)} EXCEPT ${rows(database)})`),
      engine.rows(`SELECT count() AS n FROM (${rows(fresh)})`),
    ]);
    differences[table] = {
      rows: Number(counted[0].n),
      onlyCopied: Number(onlyCopied[0].n),
      onlyIngested: Number(onlyIngested[0].n),
    };
  }
  return differences;
}

/** The column list of an INSERT into `table` and the SELECT expressions that fill it. */
async function selectList(engine, database, table, changes) {
  const names = (await engine.rows(`DESCRIBE TABLE ${database}.${table}`)).map((c) => String(c.name));
  for (const name of Object.keys(changes))
    if (!names.includes(name))
      throw new Error(`${table} has no column ${name}: update bench/lib/generated-calls.mjs`);
  return {
    columns: names.join(', '),
    values: names.map((name) => changes[name] ?? name).join(', '),
  };
}
