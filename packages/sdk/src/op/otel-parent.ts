import { callIdOfSpan, traceIdOfOtel } from '@weft/protocol';
import type { CallRecord, UsageParent } from '../calls/index.js';
import { activeSpanContext, type ContextFrame, type OtelContext, SPAN_KEY } from '../context/index.js';
import { WeftCallSpan } from './weft-call-span.js';

/** Where a new call goes in a trace that OpenTelemetry also writes to. */
export interface OtelPlacement {
  readonly traceId: string;
  readonly parentId: string;
  /**
   * Where usage and child counts roll up: the span itself when it is
   * recorded in-process (it rolls on into its own parent), else the nearest
   * running Weft ancestor in the same trace, or `undefined` when there is none.
   */
  readonly rollUpInto: UsageParent | undefined;
}

/** The spans recorded in-process that are running: `SpanRollUp`. */
interface RecordedSpans {
  parentFor(span: unknown): UsageParent | undefined;
}

/**
 * The parent of a call started while `active` is the OpenTelemetry context,
 * when that context says more than the Weft frame does:
 *
 * ```
 *  weft op A ─► otel span S ─► weft op B      B.parentId = call id of S; B rolls up into S
 *                                             when S is recorded in-process, else into A
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
  recorded: RecordedSpans,
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
    rollUpInto:
      recorded.parentFor(span) ??
      (weftParent !== undefined && weftParent.traceId === traceId ? weftParent : undefined),
  };
}

/** Where a new call goes: its trace, its parent's id, and what its usage rolls up into. */
export interface CallPlace {
  traceId: string | undefined;
  parentId: string | null;
  parent: UsageParent | undefined;
}

/**
 * Places a new call: under the running Weft call of `frame` (of this
 * client), unless an OTel span was made active since that call started (or
 * there is no Weft call), in which case the OTel context decides
 * ({@link otelPlacement}); with neither, under the remote parent a request
 * from another process named (`frame.remoteParent`). `traceId` is
 * `undefined` for a root.
 */
export function placeCall(
  frame: ContextFrame | undefined,
  active: OtelContext | undefined,
  owner: object,
  recorded: RecordedSpans,
): CallPlace {
  const call = frame?.call !== undefined && frame.call.owner === owner ? frame.call : undefined;
  if (active !== undefined && (call === undefined || frame?.otel !== active)) {
    const placed = otelPlacement(active, call, owner, recorded);
    if (placed !== undefined && 'rollUpInto' in placed)
      return { traceId: placed.traceId, parentId: placed.parentId, parent: placed.rollUpInto };
    if (placed !== undefined) return { traceId: placed.traceId, parentId: placed.id, parent: placed };
  }
  // No Weft or OTel parent, but a request from another process named one.
  if (call === undefined && frame?.remoteParent !== undefined) {
    return { traceId: frame.remoteParent.traceId, parentId: frame.remoteParent.parentId, parent: undefined };
  }
  return { traceId: call?.traceId, parentId: call?.id ?? null, parent: call };
}
