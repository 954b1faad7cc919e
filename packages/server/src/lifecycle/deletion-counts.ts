import type { DeletionCounts } from '@weft/protocol';

/** Nothing deleted. */
export const NO_COUNTS: DeletionCounts = Object.freeze({ traces: 0, calls: 0, values: 0, files: 0 });

/** The sum of two counts of deletion steps. */
export function addCounts(a: DeletionCounts, b: DeletionCounts): DeletionCounts {
  return {
    traces: a.traces + b.traces,
    calls: a.calls + b.calls,
    values: a.values + b.values,
    files: a.files + b.files,
  };
}
