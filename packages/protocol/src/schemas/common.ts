import { z } from 'zod';

/**
 * The latest time the protocol accepts: the last millisecond of the year
 * 9999. JavaScript's `Date` reaches the year 275760, but a time past 9999
 * has no four-digit ISO form, is never a real trace time, and one such
 * value (`1e300`) once broke every reader that formats dates.
 */
export const MAX_TIMESTAMP_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** True for a number {@link timestampMs} accepts: finite, from 1970 to {@link MAX_TIMESTAMP_MS}. */
export function isTimestampMs(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= MAX_TIMESTAMP_MS;
}

const timestampMessage = (issue: { input?: unknown }) =>
  `must be a time in milliseconds since 1970-01-01, at most ${MAX_TIMESTAMP_MS} (9999-12-31); got ${String(issue.input)}`;

/** Milliseconds since the Unix epoch (fractions allowed), from 1970 to the end of 9999. */
export const timestampMs = z
  .number()
  .finite()
  .min(0, { error: timestampMessage })
  .max(MAX_TIMESTAMP_MS, { error: timestampMessage });

/** Any JSON-like value; nested structure is validated by the canonical encoder where it matters. */
export const anyValue = z.unknown();

/**
 * String-keyed record of arbitrary values (inputs, attributes): any plain
 * object, passed on as it is, like `anyValue`. Not `z.record`, which copies
 * the object by assignment and so silently dropped a `__proto__` key from
 * inputs while `output` kept it: every key a client sends, `__proto__` and
 * `constructor` included, stays an own data key (the decoders define such
 * keys, never assign them), so it is stored and digested as sent.
 */
export const valueRecord = z.custom<Record<string, unknown>>(isPlainRecord, {
  error: 'must be an object of named values',
});

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Body of every error response. `path` names the offending field (`items.3.startedAt`). */
export const errorResponse = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    path: z.string().optional(),
    /** For batch requests: the index of the item that was rejected. */
    index: z.number().int().optional(),
  }),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

export const healthResponse = z.object({ status: z.literal('ok') });
export const versionResponse = z.object({ version: z.string(), protocolVersion: z.number().int() });
export type VersionResponse = z.infer<typeof versionResponse>;
