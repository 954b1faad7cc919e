import { duplicateIds, listServerCalls } from '../support/index.js';

/** What the server holds of the calls a fault run expected. */
export interface ServerCheck {
  /** Calls the query API listed for the project (every page). */
  listed: number;
  /** Expected ids the server holds (each counted once). */
  onServer: number;
  /** Expected ids the server does not hold: lost calls. */
  missing: string[];
  /** Ids the query API listed more than once. */
  duplicates: string[];
  /** Ids listed that were not expected (for the SDK-kill fault: calls of the killed round nobody claimed). */
  unexpected: number;
}

/** Lists every call of `project` through the query API (straight to the server, not through the proxy) and compares by id. */
export async function checkServer(
  url: string,
  project: string,
  expected: readonly string[],
): Promise<ServerCheck> {
  const calls = await listServerCalls(url, project);
  const listedIds = new Set(calls.map((call) => call.id));
  const expectedIds = new Set(expected);
  const missing = [...expectedIds].filter((id) => !listedIds.has(id));
  let unexpected = 0;
  for (const id of listedIds) if (!expectedIds.has(id)) unexpected += 1;
  return {
    listed: calls.length,
    onServer: expectedIds.size - missing.length,
    missing,
    duplicates: duplicateIds(calls),
    unexpected,
  };
}
