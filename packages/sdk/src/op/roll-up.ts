import { type CallSummary, type ModelUsage, totalCostUsd } from '@weft/protocol';
import { addUsage, type UsageParent } from '../calls/index.js';

/**
 * Adds a finished child's total usage and status to its running parent (a
 * Weft call, or an OTel span recorded in-process). A parent that already
 * ended gets nothing: its summary is sent. One rule for calls and spans.
 */
export function rollUpInto(
  parent: UsageParent | undefined,
  usage: Record<string, ModelUsage> | undefined,
  status: 'success' | 'error',
): void {
  if (parent === undefined || parent.endedAt !== undefined) return;
  parent.childUsage = addUsage(parent.childUsage, usage);
  if (parent.childCounts === undefined) parent.childCounts = { success: 0, error: 0 };
  parent.childCounts[status]++;
}

/**
 * Sets a summary's `usage` and the `costUsd` it gives (no cost when no
 * model of it is priced, never 0): the one place a summary's cost is derived.
 */
export function setSummaryUsage(summary: CallSummary, usage: Record<string, ModelUsage> | undefined): void {
  if (usage === undefined) return;
  summary.usage = usage;
  const costUsd = totalCostUsd(usage);
  if (costUsd === undefined) delete summary.costUsd;
  else summary.costUsd = costUsd;
}
