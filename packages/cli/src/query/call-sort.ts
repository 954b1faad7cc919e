import type { CallSortField } from '@weft/protocol';

const SORT_FIELDS: Readonly<Record<string, CallSortField>> = {
  started: 'startedAt',
  startedAt: 'startedAt',
  latency: 'latencyMs',
  latencyMs: 'latencyMs',
  op: 'opName',
  opName: 'opName',
};

/** What {@link callSortOf} reads, for error messages. */
export const CALL_SORT_FORMS = 'started, latency or op, optionally with :asc or :desc (e.g. latency:desc)';

/** `latency`, `latency:asc`, `started:desc`, `op` (API names work too); undefined for anything else. */
export function callSortOf(text: string): { field: CallSortField; direction: 'asc' | 'desc' } | undefined {
  const [name = '', direction = 'desc', extra] = text.split(':');
  const field = SORT_FIELDS[name];
  if (field === undefined || extra !== undefined || (direction !== 'asc' && direction !== 'desc'))
    return undefined;
  return { field, direction };
}
