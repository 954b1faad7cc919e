import { type PriceOverrides, totalCostUsd } from '../pricing/index.js';
import { type CallComplete, type CallSummary, isTimestampMs } from '../schemas/index.js';
import { inputsOfSpan, outputOfSpan, type SpanEvents } from './gen-ai-messages.js';
import { type UsageScope, usageOfSpan, usageScopeOfSpan } from './gen-ai-usage.js';
import type { OtelAttributeValue, OtelEvent, OtelLink, OtelResource, OtelSpan } from './otel-span.js';
import { SpanAttributes } from './span-attributes.js';
import { exceptionOfSpan } from './span-exception.js';
import { callIdOfSpan, isValidOtelSpanId, isValidOtelTraceId, traceIdOfOtel } from './trace-ids.js';
import { setOwnKey } from '../values/index.js';

/** Options of {@link spanToCall}. */
export interface SpanToCallOptions {
  /** Extra or overriding model prices, as given to `weft.init({ prices })`. */
  prices?: PriceOverrides | undefined;
}

/**
 * What became of one span: a call, or why it could not be one (the server
 * counts these in OTLP's `partialSuccess.rejectedSpans`).
 */
export type SpanMapping =
  | {
      status: 'mapped';
      call: CallComplete;
      /**
       * The conversation the span belongs to (`gen_ai.conversation.id`,
       * OpenInference `session.id`, the AI SDK's `ai.telemetry.metadata.sessionId`).
       * Stored as the `weft.session.id` attribute until calls get a session field.
       */
      sessionId: string | undefined;
      /**
       * Whether `call.summary.usage` (the span's own) already totals the
       * model calls beneath it; storage rolls usage up the trace by it.
       */
      usageScope: UsageScope;
    }
  | { status: 'rejected'; reason: string };

/** Attribute keys that name a span's conversation, first match wins. */
export const SESSION_KEYS = [
  'gen_ai.conversation.id',
  'session.id',
  'ai.telemetry.metadata.sessionId',
] as const;
/**
 * Attribute keys of a streamed model call's time to its first chunk, in
 * milliseconds, first match wins: the AI SDK's `…doStream` spans
 * (`streamText`'s, then `streamObject`'s). Mapped to `summary.timeToFirstTokenMs`.
 */
export const TIME_TO_FIRST_TOKEN_KEYS = ['ai.response.msToFirstChunk', 'ai.stream.msToFirstChunk'] as const;
/** The attribute a mapped call keeps its session id under. */
export const SESSION_ATTRIBUTE = 'weft.session.id';
/** The event that carries the current GenAI conventions' messages when they are not span attributes. */
const DETAILS_EVENT = 'gen_ai.client.inference.operation.details';
const MAX_OP_NAME = 2_048;

/**
 * One OpenTelemetry span as one Weft call (a `complete` record, upserted by
 * id, so a re-sent span updates its call):
 *
 * - ids by `trace-ids.ts`: trace id → trace id, span id → `callIdOfSpan`,
 *   parent span id → the parent's call id (null for a root);
 * - name → op name; start/end (ns) → `startedAt`/`endedAt` (ms);
 * - GenAI messages → `inputs` / `output`, token counts → `summary.usage[model]`
 *   priced from the price table (+ `prices`), `summary.costUsd`;
 * - status ERROR → `exception` from the last `exception` event;
 * - links → `otel.links` as Weft ids (`{ traceId, callId, attributes }`),
 *   a link with invalid ids dropped;
 * - everything else is kept: span attributes not moved into inputs/output
 *   (flat keys), `otel.resource`, `otel.scope`, `otel.kind`, `otel.status`,
 *   `otel.events` (times in ms).
 *
 * Pure and dependency-free: the server's OTLP ingest and the SDK's span
 * processor both call it. See {@link OtelSpan} for how to fill its input.
 */
export function spanToCall(
  span: OtelSpan,
  resource: OtelResource | undefined,
  options: SpanToCallOptions = {},
): SpanMapping {
  if (!isValidOtelTraceId(span.traceId))
    return rejected(`trace id ${describe(span.traceId)} is not 32 hex digits, not all zero`);
  if (!isValidOtelSpanId(span.spanId))
    return rejected(`span id ${describe(span.spanId)} is not 16 hex digits, not all zero`);
  const parent = span.parentSpanId ?? '';
  const isRoot = parent === '' || /^0{16}$/.test(parent);
  if (!isRoot && !isValidOtelSpanId(parent))
    return rejected(`parent span id ${describe(parent)} is not 16 hex digits`);
  const startedAt = msOfNanos(span.startTimeUnixNano);
  const endedAt = msOfNanos(span.endTimeUnixNano);
  if (startedAt === undefined)
    return rejected(`start time ${describe(String(span.startTimeUnixNano))} is not a count of nanoseconds`);
  if (endedAt === undefined)
    return rejected(`end time ${describe(String(span.endTimeUnixNano))} is not a count of nanoseconds`);
  if (!isTimestampMs(startedAt))
    return rejected(`startTimeUnixNano ${describe(String(span.startTimeUnixNano))} is after the year 9999`);
  if (!isTimestampMs(endedAt))
    return rejected(`endTimeUnixNano ${describe(String(span.endTimeUnixNano))} is after the year 9999`);

  const events: SpanEvents = { all: span.events ?? [], consumed: new Set() };
  const attributes = new SpanAttributes(withDetailsEvent(span.attributes, events));
  const inputs = inputsOfSpan(attributes, events);
  const output = outputOfSpan(attributes, events);
  const usage = usageOfSpan(attributes, options.prices);
  const exception = exceptionOfSpan(span);
  const sessionId = attributes.string(...SESSION_KEYS);
  const end = Math.max(endedAt, startedAt);
  const costUsd = totalCostUsd(usage);
  const timeToFirstTokenMs = attributes.count(...TIME_TO_FIRST_TOKEN_KEYS);
  const summary: CallSummary = {
    latencyMs: end - startedAt,
    status: exception === undefined ? 'success' : 'error',
    ...(usage === undefined ? {} : { usage }),
    ...(costUsd === undefined ? {} : { costUsd }),
    ...(timeToFirstTokenMs === undefined ? {} : { timeToFirstTokenMs }),
  };
  const call: CallComplete = {
    type: 'complete',
    id: callIdOfSpan(span.traceId, span.spanId),
    traceId: traceIdOfOtel(span.traceId),
    parentId: isRoot ? null : callIdOfSpan(span.traceId, parent),
    opName: (span.name === '' ? 'span' : span.name).slice(0, MAX_OP_NAME),
    startedAt,
    inputs,
    // The call's session (indexed, listed by the sessions view); too long an id is cut to the schema's bound.
    ...(sessionId === undefined ? {} : { sessionId: sessionId.slice(0, 256) }),
    attributes: callAttributes(attributes, span, resource, events, sessionId),
    endedAt: end,
    ...(output === undefined ? {} : { output }),
    ...(exception === undefined ? {} : { exception }),
    summary,
  };
  return { status: 'mapped', call, sessionId, usageScope: usageScopeOfSpan(attributes, span.name, usage) };
}

/**
 * The call's attributes: the span's not moved into inputs or output, then
 * the OTel facts with no Weft field of their own under `otel.*` keys (which
 * win over a span attribute of the same name), then the session id. Built by
 * assignment into one object: this runs for every ingested span.
 */
function callAttributes(
  attributes: SpanAttributes,
  span: OtelSpan,
  resource: OtelResource | undefined,
  events: SpanEvents,
  sessionId: string | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = attributes.remaining();
  if (span.kind !== undefined) out['otel.kind'] = span.kind;
  if (span.status !== undefined && span.status.code !== 0) out['otel.status'] = span.status;
  if (span.scope !== undefined) out['otel.scope'] = span.scope;
  if (resource !== undefined) out['otel.resource'] = defined(resource.attributes);
  const kept = events.all.filter((event) => !events.consumed.has(event));
  if (kept.length > 0) out['otel.events'] = kept.map(eventRecord);
  const links = linksOf(span.links);
  if (links.length > 0) out['otel.links'] = links;
  if (sessionId !== undefined) out[SESSION_ATTRIBUTE] = sessionId;
  return out;
}

/**
 * Links as Weft ids, so a reader goes straight to the linked call (in this
 * trace or another); a link whose ids are not valid W3C ids is dropped.
 */
function linksOf(links: readonly OtelLink[] | undefined): Record<string, unknown>[] {
  return (links ?? [])
    .filter((link) => isValidOtelTraceId(link.traceId) && isValidOtelSpanId(link.spanId))
    .map((link) => {
      const attributes = defined(link.attributes);
      return {
        traceId: traceIdOfOtel(link.traceId),
        callId: callIdOfSpan(link.traceId, link.spanId),
        ...(Object.keys(attributes).length === 0 ? {} : { attributes }),
      };
    });
}

function eventRecord(event: OtelEvent): Record<string, unknown> {
  return {
    name: event.name,
    timeMs: eventTimeMs(event),
    attributes: defined(event.attributes),
  };
}

/** An event's time in ms, or `null` when it is not a count of nanoseconds up to the year 9999. */
function eventTimeMs(event: OtelEvent): number | null {
  const ms = msOfNanos(event.timeUnixNano);
  return isTimestampMs(ms) ? ms : null;
}

/**
 * The current conventions may carry the messages on a
 * `gen_ai.client.inference.operation.details` event instead of the span;
 * its attributes are read as the span's (the span's own win).
 */
function withDetailsEvent(attributes: OtelSpan['attributes'], events: SpanEvents): OtelSpan['attributes'] {
  const details = events.all.find((event) => event.name === DETAILS_EVENT);
  if (details === undefined) return attributes;
  events.consumed.add(details);
  return { ...details.attributes, ...attributes };
}

function defined(attributes: OtelSpan['attributes']): Record<string, OtelAttributeValue> {
  const out: Record<string, OtelAttributeValue> = {};
  for (const key of Object.keys(attributes)) {
    const value = attributes[key];
    if (value !== undefined) setOwnKey(out, key, value);
  }
  return out;
}

/** Milliseconds (microsecond precision) of a nanosecond count, or `undefined` when it is not one. */
export function msOfNanos(nanos: bigint | string | number): number | undefined {
  let value: bigint;
  try {
    value = typeof nanos === 'bigint' ? nanos : BigInt(nanos);
  } catch {
    return undefined;
  }
  if (value < 0n) return undefined;
  return Number(value / 1_000n) / 1_000;
}

function rejected(reason: string): SpanMapping {
  return { status: 'rejected', reason };
}

/** A value quoted for an error message, cut to a readable length. */
function describe(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}
