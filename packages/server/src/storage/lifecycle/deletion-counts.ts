import type { DeletionCounts } from '@weft/protocol';

/** What a deletion that found nothing removed. */
export function noDeletion(): DeletionCounts {
  return { traces: 0, calls: 0, values: 0, files: 0 };
}

/**
 * What a deletion removes, as every engine reports it: its calls (counted,
 * or listed with their traces) and the values and files only they referred
 * to (counted, or the collections planned for removal).
 */
export function deletionCounts(
  calls: { traces: number; calls: number } | readonly { trace_id: string }[],
  content: { values: number | { readonly size: number }; files: number | { readonly size: number } },
): DeletionCounts {
  const called = Array.isArray(calls)
    ? { traces: new Set(calls.map((call) => call.trace_id)).size, calls: calls.length }
    : (calls as { traces: number; calls: number });
  const values = typeof content.values === 'number' ? content.values : content.values.size;
  const files = typeof content.files === 'number' ? content.files : content.files.size;
  return { traces: called.traces, calls: called.calls, values, files };
}
