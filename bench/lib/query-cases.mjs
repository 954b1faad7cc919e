// The query bench's cases: label and the call query's filters (`limit: 50`
// is added by the caller), for `total` calls starting at `t0` (epoch ms), one
// call a millisecond, as bench/query.mjs loads them.

/** @returns {[string, Record<string, unknown>][]} */
export function queryCases(total, t0) {
  return [
    ['newest root calls (the calls table)', { parentId: null }],
    ['filter by a common op', { opName: 'llm.chat' }],
    ['filter by a rare op (1 in 1,000)', { opName: 'rare.op' }],
    ['filter by status with no match', { status: 'error' }],
    ['text search in display names', { text: `#${total - 1}` }],
    ['sort by latency', { sort: { field: 'latencyMs', direction: 'desc' } }],
    ['time range of 100 ms', { startedAfter: t0 + total / 2, startedBefore: t0 + total / 2 + 100 }],
    // Issue 15: attribute filters and full-text search (SQLite FTS5).
    ['attribute: env = prod (1 in 2)', { attributes: { env: 'prod' } }],
    ['attributes: env = prod AND tier = 2 (1 in 6)', { attributes: { env: 'prod', tier: 2 } }],
    ['user id (1 in 1,000)', { userId: 'u7' }],
    ['tag vip (1 in 20)', { tag: 'vip' }],
    ['attribute with no match', { attributes: { env: 'staging' } }],
    ['session (10 calls)', { sessionId: `s${Math.floor(total / 20)}` }],
    ['text: a common word', { text: 'w1' }],
    ['text: a rare word', { text: 'wzz' }],
    ['text: two words', { text: 'w2 w3' }],
    ['text: a mid-frequency word', { text: 'w1a' }],
    ['text: FTS syntax as text', { text: '"w1" AND (w2* OR -w3:' }],
    ['text: no match', { text: 'nosuchword' }],
  ];
}
