import type { CallSummary } from '@weft/protocol';

/** Total tokens over every model of a summary's usage (this call and its descendants); `null` without usage. */
export function totalTokensOf(summary: CallSummary | undefined): number | null {
  if (summary?.usage === undefined) return null;
  let total = 0;
  for (const usage of Object.values(summary.usage)) total += usage.totalTokens;
  return total;
}
