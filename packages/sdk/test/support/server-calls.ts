import { type Call, callQueryResponse, routes } from '@weft/protocol';
import { ApiClient } from '../../src/transport/api-client.js';

/**
 * Every call of `project` the server lists, read page by page through the
 * public query API. Tests compare ids against what was traced: missing ids
 * are losses, repeated ids are duplicates.
 */
export async function listServerCalls(url: string, project: string, token?: string): Promise<Call[]> {
  const client = new ApiClient({ url, apiKey: token });
  try {
    const calls: Call[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.postJson(
        routes.callQuery(),
        {
          project,
          limit: 1_000,
          sort: { field: 'startedAt', direction: 'asc' },
          ...(cursor ? { cursor } : {}),
        },
        callQueryResponse,
      );
      calls.push(...page.calls);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return calls;
  } finally {
    await client.close();
  }
}

/** Ids that appear more than once (given as ids or as calls). */
export function duplicateIds(calls: readonly (string | { id: string })[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const call of calls) {
    const id = typeof call === 'string' ? call : call.id;
    (seen.has(id) ? twice : seen).add(id);
  }
  return [...twice];
}
