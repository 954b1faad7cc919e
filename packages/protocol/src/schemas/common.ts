import { z } from 'zod';

/** Milliseconds since the Unix epoch (fractions allowed). */
export const timestampMs = z.number().finite().nonnegative();

/** Any JSON-like value; nested structure is validated by the canonical encoder where it matters. */
export const anyValue = z.unknown();

/** String-keyed record of arbitrary values (inputs, attributes). */
export const valueRecord = z.record(z.string(), z.unknown());

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
