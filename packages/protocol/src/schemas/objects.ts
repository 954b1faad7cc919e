import { z } from 'zod';
import { digest, objectName, projectName } from './names.js';
import { anyValue, timestampMs } from './common.js';

export const objectKind = z.enum(['object', 'op']);
export type ObjectKind = z.infer<typeof objectKind>;

/**
 * Create a version of a named object. `digest` is the SDK's
 * `digestValue(value)`; the server recomputes it and rejects a mismatch.
 * Nested objects appear in `value` as their ref URIs. Creating a version that
 * already exists is a no-op that returns it.
 */
export const objectCreate = z.object({
  project: projectName,
  name: objectName,
  kind: objectKind.default('object'),
  digest,
  value: anyValue,
});
export type ObjectCreate = z.input<typeof objectCreate>;

/** One stored version of an object. `version` counts from 1 per name. */
export const objectVersion = z.object({
  project: projectName,
  name: objectName,
  kind: objectKind,
  digest,
  version: z.number().int().positive(),
  createdAt: timestampMs,
  ref: z.string(),
});
export type ObjectVersion = z.infer<typeof objectVersion>;

export const objectCreateResponse = objectVersion.extend({ created: z.boolean() });
export type ObjectCreateResponse = z.infer<typeof objectCreateResponse>;

export const objectRead = objectVersion.extend({ value: anyValue });
export type ObjectRead = z.infer<typeof objectRead>;

/**
 * A label name: starts with a letter, up to 40 letters, digits, `.`, `_`, `-`
 * (shorter than a digest, so the two never collide), and neither `latest`
 * nor `v<N>`, which select versions by themselves.
 */
export const LABEL_NAME = /^(?!latest$)(?!v[0-9]+$)[A-Za-z][A-Za-z0-9._-]{0,39}$/;
export const labelName = z
  .string()
  .regex(
    LABEL_NAME,
    'must be 1–40 letters, digits, ".", "_" or "-", starting with a letter, and not "latest" or "v<N>"',
  );

/** A version selector in read paths: a digest, `latest`, `v<N>`, or a label (`production`). */
export const versionSelector = z.union([
  digest,
  z.literal('latest'),
  z.string().regex(/^v[1-9][0-9]{0,9}$/),
  labelName,
]);

export const objectVersionsResponse = z.object({ versions: z.array(objectVersion) });
export type ObjectVersionsResponse = z.infer<typeof objectVersionsResponse>;

/** Summary of one object name, for listing a project's objects. */
export const objectSummary = z.object({
  name: objectName,
  kind: objectKind,
  latestDigest: digest,
  versionCount: z.number().int().positive(),
  updatedAt: timestampMs,
});
export const objectListResponse = z.object({ objects: z.array(objectSummary) });
export type ObjectListResponse = z.infer<typeof objectListResponse>;
