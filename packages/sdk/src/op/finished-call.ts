import type { CallSummary, ModelUsage } from '@weft/protocol';
import { type CallRecord, type FinishedCall, usageOf } from '../calls/index.js';
import { materialize } from '../values/index.js';
import { setSummaryUsage } from './roll-up.js';

/** Outputs whose usage was already counted by the call that produced them. */
const countedOutputs = new WeakSet<object>();

/**
 * Usage carried by a call's own output, counted once: an op that returns
 * its child's LLM response as is must not count that usage again (the
 * child's usage already rolled up into it).
 */
export function ownUsage(output: unknown): Record<string, ModelUsage> | undefined {
  const usage = usageOf(output);
  if (usage === undefined) return undefined;
  if (countedOutputs.has(output as object)) return undefined;
  countedOutputs.add(output as object);
  return usage;
}

/** What an op's `onFinish` hook is given. */
export function finishedView(call: CallRecord): FinishedCall {
  return {
    id: call.id,
    traceId: call.traceId,
    parentId: call.parentId,
    opName: call.opName,
    startedAt: call.startedAt,
    endedAt: call.endedAt ?? call.startedAt,
    output: materialize(call.output),
    error: call.error,
    summary: call.summary ?? {},
  };
}

/**
 * A finished call's summary (`call.endedAt` set): latency, status, a stream's time to its first
 * output, usage (its own, priced, and its children's) with its cost, and
 * its children's statuses.
 */
export function finishedSummary(
  call: CallRecord,
  endedPerf: number,
  status: 'success' | 'error',
  usage: Record<string, ModelUsage> | undefined,
  firstOutputAt: number | undefined,
): CallSummary {
  // `endedAt − startedAt` (not the two perf readings, which differ from it in
  // the last bits): a complete record then leaves it to the server (see
  // `latencyIsImplied` in @weft/protocol).
  const endedAt = call.endedAt ?? performance.timeOrigin + endedPerf;
  const summary: CallSummary = { latencyMs: Math.max(0, endedAt - call.startedAt), status };
  if (firstOutputAt !== undefined)
    summary.timeToFirstTokenMs = Math.max(0, firstOutputAt - call.startedAtPerf);
  setSummaryUsage(summary, usage);
  if (call.childCounts !== undefined) summary.childCounts = call.childCounts;
  return summary;
}
