import { callQuery, type KeepRule } from '@weft/protocol';
import type { Storage } from '../storage/index.js';

/**
 * Of `traceIds`, those with a call that a keep rule matches (the rule's
 * filters ANDed, as a calls query answers them on every engine): one
 * query per rule and trace, each for at most one call.
 */
export async function keptByRules(
  storage: Storage,
  project: string,
  traceIds: readonly string[],
  rules: readonly KeepRule[],
): Promise<Set<string>> {
  const kept = new Set<string>();
  if (rules.length === 0) return kept;
  for (const traceId of traceIds) {
    for (const rule of rules) {
      const page = await storage.queryCalls(callQuery.parse({ ...rule.filter, project, traceId, limit: 1 }));
      if (page.calls.length > 0) {
        kept.add(traceId);
        break;
      }
    }
  }
  return kept;
}
