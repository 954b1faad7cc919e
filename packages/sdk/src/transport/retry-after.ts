/** Delay-seconds per RFC 9110 §10.2.3; fractions are accepted because some proxies send them. */
const SECONDS = /^\s*(\d+(?:\.\d+)?)\s*$/;

/**
 * Parses an HTTP `Retry-After` header into a delay in milliseconds from
 * `nowMs`. Accepts delay-seconds (`"120"`) and an HTTP-date
 * (`"Wed, 21 Oct 2015 07:28:00 GMT"`); a date in the past gives 0.
 *
 * @param value - The header value, or `undefined` when the header is absent.
 * @param nowMs - The current time (ms since the epoch), injected so tests need no clock.
 * @returns The delay in ms, or `undefined` when the header is absent or unparseable.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const seconds = SECONDS.exec(value);
  if (seconds) return Math.round(Number(seconds[1]) * 1000);
  // Date.parse also accepts bare numbers and odd fragments; an HTTP-date always names a weekday and a GMT zone.
  if (!/GMT\s*$/i.test(value.trim())) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
