import type { ModelUsage } from '@weft/protocol';
import type { CallRecord } from '../calls/index.js';
import { setSummaryUsage } from './roll-up.js';

/** A call another process started and never ended, as its run's record of it says. */
export interface OrphanCall {
  id: string;
  traceId: string;
  parentId: string | null;
  opName: string;
  startedAt: number;
}

/**
 * The end of an orphaned call, now: status error with `error` as its
 * exception, and `usage` (priced) as what it is known to have spent. Its
 * start is on the server (or in a dead process's outbox), so only the end
 * is sent.
 */
export function orphanEnd(
  orphan: OrphanCall,
  owner: object,
  error: unknown,
  usage?: Record<string, ModelUsage>,
): CallRecord {
  const endedAt = Date.now();
  const summary: CallRecord['summary'] = {
    latencyMs: Math.max(0, endedAt - orphan.startedAt),
    status: 'error',
  };
  setSummaryUsage(summary, usage);
  return {
    ...orphan,
    parent: undefined,
    owner,
    displayName: undefined,
    startedAtPerf: 0,
    inputs: undefined,
    attributes: undefined,
    endedAt,
    output: undefined,
    error,
    failed: true,
    summary,
    childUsage: undefined,
    childCounts: undefined,
    startSubmitted: true,
  };
}
