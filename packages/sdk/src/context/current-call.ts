import { callContext } from './call-context.js';

/** The running call as user code sees it. */
export interface CurrentCall {
  readonly id: string;
  readonly traceId: string;
  readonly parentId: string | null;
  readonly opName: string;
  readonly startedAt: number;
  readonly attributes: Readonly<Record<string, unknown>> | undefined;
  readonly sessionId: string | undefined;
}

/**
 * The call whose op is running now (inside a `weft.op` function, its awaits and
 * the callbacks it schedules), or `undefined` outside any traced call.
 */
export function currentCall(): CurrentCall | undefined {
  const call = callContext.getStore()?.call;
  if (call === undefined) return undefined;
  return {
    id: call.id,
    traceId: call.traceId,
    parentId: call.parentId,
    opName: call.opName,
    startedAt: call.startedAt,
    attributes: call.attributes,
    sessionId: call.sessionId,
  };
}
