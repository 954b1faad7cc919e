import type { CallEnd, CallStatus } from '@weft/protocol';

/**
 * Status a call has once its end arrived: an exception or an explicit `error`
 * summary status wins; otherwise it succeeded (`running` in an end is
 * meaningless and ignored).
 */
export function endStatus(end: Pick<CallEnd, 'exception' | 'summary'>): CallStatus {
  if (end.exception !== undefined || end.summary?.status === 'error') return 'error';
  return 'success';
}
