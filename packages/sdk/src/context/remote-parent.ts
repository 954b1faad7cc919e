import {
  callIdOfSpan,
  isValidOtelSpanId,
  isValidOtelTraceId,
  otelSpanIdOf,
  otelTraceIdOf,
  traceIdOfOtel,
} from '@weft/protocol';
import { callContext, type RemoteParent } from './call-context.js';

// version 00: `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`. A later
// version may append fields after a dash; its first four are read the same way.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
// W3C: at most 32 list members of `key=value`, keys and values of printable
// ASCII without `,` or `=`; at most 512 characters in all.
const TRACESTATE_MEMBER =
  /^[a-z0-9][a-z0-9_\-*/@]{0,255}=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

/**
 * Reads a W3C `traceparent` (and `tracestate`) as a {@link RemoteParent}, or
 * `undefined` when it is absent or malformed in any way (wrong type,
 * version `ff`, an all-zero id, upper-case hex, extra fields on version 00).
 * A malformed `tracestate` is dropped on its own; the parent still holds.
 * The input comes from another process: it can only place calls in a
 * trace, never change where they are sent.
 */
export function parseTraceparent(traceparent: unknown, tracestate?: unknown): RemoteParent | undefined {
  if (typeof traceparent !== 'string' || traceparent.length > 512) return undefined;
  const m = TRACEPARENT.exec(traceparent);
  if (m === null) return undefined;
  const [, version, traceHex, spanHex, , rest] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (!isValidOtelTraceId(traceHex) || !isValidOtelSpanId(spanHex)) return undefined;
  const traceState = validTraceState(tracestate);
  return {
    traceId: traceIdOfOtel(traceHex),
    parentId: callIdOfSpan(traceHex, spanHex),
    ...(traceState === undefined ? {} : { traceState }),
  };
}

function validTraceState(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 512) return undefined;
  const members = value
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
  if (members.length === 0 || members.length > 32) return undefined;
  return members.every((m) => TRACESTATE_MEMBER.test(m)) ? members.join(',') : undefined;
}

/** The W3C `traceparent` of a Weft call (sampled flag set: the call is being recorded). */
export function traceparentOf(call: { readonly id: string; readonly traceId: string }): string {
  return `00-${otelTraceIdOf(call.traceId)}-${otelSpanIdOf(call.id)}-01`;
}

/**
 * Runs `fn` so that a call started inside it with no running Weft parent
 * joins `parent`'s trace as its child; with `parent` undefined, `fn` just
 * runs. Returns what `fn` returns.
 */
export function withRemoteParent<T>(parent: RemoteParent | undefined, fn: () => T): T {
  if (parent === undefined) return fn();
  const frame = callContext.getStore();
  return callContext.run(
    {
      call: undefined,
      attributes: frame?.attributes,
      otel: frame?.otel,
      unsampledBy: frame?.unsampledBy,
      sessionId: frame?.sessionId,
      remoteParent: parent,
    },
    fn,
  );
}

/** The remote parent the current context carries (its `tracestate` travels on), if any. */
export function currentRemoteParent(): RemoteParent | undefined {
  return callContext.getStore()?.remoteParent;
}
