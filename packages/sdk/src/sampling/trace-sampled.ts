/** 2^32: the head decision compares 32 bits of the trace id with `sampleRate × 2^32`. */
const SPAN = 0x1_0000_0000;

/**
 * The head-sampling decision for one trace, a pure function of its id:
 * the LAST 32 bits of the trace id (its last 8 hex digits), read as an
 * unsigned integer, are kept when below `sampleRate × 2^32`.
 *
 * Why those bits: a Weft root id is a UUIDv7 whose last 62 bits are random,
 * and a W3C trace id (the Weft trace id of an OpenTelemetry trace) has random
 * rightmost bytes too, so every process that sees the same trace id decides
 * the same way, with no coordination, and rate 0.1 keeps a tenth of traces.
 * No hashing: the bits are already uniform. A trace id that is not hex in
 * those places (never produced by Weft) is kept.
 */
export function isTraceSampled(traceId: string, sampleRate: number): boolean {
  const bits = Number.parseInt(traceId.slice(-8), 16);
  return Number.isNaN(bits) || areTraceBitsSampled(bits, sampleRate);
}

/** {@link isTraceSampled} on the last 32 bits of the trace id, as an unsigned integer (before the id string is built). */
export function areTraceBitsSampled(bits: number, sampleRate: number): boolean {
  if (sampleRate >= 1) return true;
  if (sampleRate <= 0) return false;
  return bits < sampleRate * SPAN;
}
