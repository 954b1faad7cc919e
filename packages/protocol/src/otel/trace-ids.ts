/**
 * One mapping between W3C trace context ids (OpenTelemetry) and Weft ids,
 * used by the server's OTLP ingest and by the SDK alike, so a span and a
 * call that refer to each other agree without any lookup:
 *
 * ```
 *  W3C trace id (16 bytes)  ──  Weft trace id: the same 16 bytes as a UUID
 *  W3C span id  ( 8 bytes)  ──  Weft call id:  trace id bytes 0–7 ++ span id bytes 0–7
 *
 *  trace 0195f3a2-7c1d-7a00-8f3e-1b2c3d4e5f60, span 9a8b7c6d5e4f3a2b
 *        ─────────┬────────                         ────────┬───────
 *  call  0195f3a2-7c1d-7a00-9a8b-7c6d5e4f3a2b
 * ```
 *
 * A re-sent span maps to the same call (ingest is an upsert by call id);
 * a span's parent maps to its parent's call whether that parent was an OTel
 * span or a Weft call, in this process or another. For this to hold, every
 * Weft call id inside a trace starts with the trace id's first 8 bytes, and
 * a Weft call's W3C span id is its last 8 bytes. A Weft root call's id is
 * its trace id (a UUIDv7), so it satisfies the rule by construction.
 */

const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;
const ZERO32 = '0'.repeat(32);
const ZERO16 = '0'.repeat(16);

/** True for a valid W3C trace id: 32 lowercase hex digits, not all zero. */
export function isValidOtelTraceId(hex: string): boolean {
  return HEX32.test(hex) && hex !== ZERO32;
}

/** True for a valid W3C span id: 16 lowercase hex digits, not all zero. */
export function isValidOtelSpanId(hex: string): boolean {
  return HEX16.test(hex) && hex !== ZERO16;
}

/** 32 hex digits as a UUID (8-4-4-4-12). */
function asUuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The Weft trace id of a W3C trace id (lowercase hex, validated by the caller). */
export function traceIdOfOtel(traceIdHex: string): string {
  return asUuid(traceIdHex);
}

/** The Weft call id of a span: the trace id's first 8 bytes, then the span id. */
export function callIdOfSpan(traceIdHex: string, spanIdHex: string): string {
  return asUuid(traceIdHex.slice(0, 16) + spanIdHex);
}

/** The W3C trace id (32 lowercase hex digits) of a Weft trace id. */
export function otelTraceIdOf(traceId: string): string {
  return traceId.replaceAll('-', '').toLowerCase();
}

/** The W3C span id (16 lowercase hex digits) of a Weft call id: its last 8 bytes. */
export function otelSpanIdOf(callId: string): string {
  return callId.replaceAll('-', '').slice(16).toLowerCase();
}
