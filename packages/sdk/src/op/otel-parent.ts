import { callIdOfSpan, traceIdOfOtel } from '@weft/protocol';
import type { CallRecord } from '../calls/index.js';
import { activeSpanContext, type OtelContext, SPAN_KEY } from '../context/index.js';
import { WeftCallSpan } from './weft-call-span.js';

/** Where a new call goes in a trace that OpenTelemetry also writes to. */
export interface OtelPlacement {
  readonly traceId: string;
  readonly parentId: string;
  /**
   * The nearest running Weft ancestor in the same trace (usage and child
   * counts roll up into it), or `undefined` when there is none.
   */
  readonly rollUpInto: CallRecord | undefined;
}

/**
 * The parent of a call started while `active` is the OpenTelemetry context,
 * when that context says more than the Weft frame does:
 *
 * ```
 *  weft op A ─► otel span S ─► weft op B      B.parentId = call id of S, B rolls up into A
 *  otel span S ─► weft op B                   B joins S's trace, B.parentId = call id of S
 *  weft op A ─► weft op B                     undefined: the Weft frame decides (A)
 * ```
 *
 * Called only when the active context is not the one the enclosing Weft call
 * installed (`frameContext`), i.e. an OTel span was started since — or when
 * there is no enclosing Weft call. Returns `undefined` when the Weft frame
 * decides.
 */
export function otelPlacement(
  active: OtelContext,
  weftParent: CallRecord | undefined,
  owner: object,
): OtelPlacement | CallRecord | undefined {
  const span = active.getValue(SPAN_KEY);
  if (span instanceof WeftCallSpan) {
    // The context carries a Weft call (its frame was lost on the way, e.g. a
    // callback bound with `context.bind`): that call is the parent.
    return span.call.owner === owner && span.call.endedAt === undefined ? span.call : undefined;
  }
  const sc = activeSpanContext(active);
  if (sc === undefined) return undefined;
  const traceId = traceIdOfOtel(sc.traceId);
  return {
    traceId,
    parentId: callIdOfSpan(sc.traceId, sc.spanId),
    rollUpInto: weftParent !== undefined && weftParent.traceId === traceId ? weftParent : undefined,
  };
}
