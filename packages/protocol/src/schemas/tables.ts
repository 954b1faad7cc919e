import { z } from 'zod';
import { digest, projectName } from './names.js';
import { anyValue } from './common.js';

export const MAX_ROWS_PER_REQUEST = 100_000;

/**
 * Create a table from rows. Each row's digest is `digestValue(row)`; the
 * table's is `tableDigest(rowDigests)`. `digest`, when given, is checked.
 */
export const tableCreate = z.object({
  project: projectName,
  rows: z.array(anyValue).max(MAX_ROWS_PER_REQUEST),
  digest: digest.optional(),
});
export type TableCreate = z.infer<typeof tableCreate>;

/** Append rows to an existing table, making a new table (tables are immutable). */
export const tableAppend = z.object({
  project: projectName,
  base: digest,
  rows: z.array(anyValue).min(1).max(MAX_ROWS_PER_REQUEST),
  digest: digest.optional(),
});
export type TableAppend = z.infer<typeof tableAppend>;

export const tableCreateResponse = z.object({
  digest,
  rowDigests: z.array(digest),
  rowCount: z.number().int().nonnegative(),
});
export type TableCreateResponse = z.infer<typeof tableCreateResponse>;

/** Query string of a rows page. */
export const tableRowsQuery = z.object({
  offset: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().min(1).max(10_000).default(100),
});

export const tableRow = z.object({ digest, value: anyValue });
export const tableRowsResponse = z.object({
  digest,
  rowCount: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
  rows: z.array(tableRow),
});
export type TableRowsResponse = z.infer<typeof tableRowsResponse>;

/** Most row digests one table may list in a `tableByDigests` request (≈ 46 MB of JSON at the limit). */
export const MAX_TABLE_ROWS = 1_000_000;

/**
 * Which of these row digests the server already stores for `project`. Rows
 * belong to a project: the answer never reveals another project's rows.
 */
export const tableRowsKnown = z.object({
  project: projectName,
  digests: z.array(digest).max(MAX_ROWS_PER_REQUEST),
});
export type TableRowsKnown = z.infer<typeof tableRowsKnown>;

/** The subset of the asked digests the server holds, in the order asked. */
export const tableRowsKnownResponse = z.object({ known: z.array(digest) });
export type TableRowsKnownResponse = z.infer<typeof tableRowsKnownResponse>;

/**
 * Store rows by digest without making a table (a chunk of a large upload).
 * The server recomputes each row's digest and rejects a mismatch.
 */
export const tableRowsPut = z.object({
  project: projectName,
  rows: z.array(tableRow).max(MAX_ROWS_PER_REQUEST),
});
export type TableRowsPut = z.infer<typeof tableRowsPut>;

/** `stored`: rows that were new to the project. */
export const tableRowsPutResponse = z.object({ stored: z.number().int().nonnegative() });
export type TableRowsPutResponse = z.infer<typeof tableRowsPutResponse>;

/**
 * Create a table from row digests: `rows` carries the contents the server
 * lacks (checked against their digests), every digest in `rowDigests` must
 * then be stored for the project, and the table's digest is
 * `tableDigest(rowDigests)` (`digest`, when given, is checked).
 */
export const tableByDigests = z.object({
  project: projectName,
  rowDigests: z.array(digest).max(MAX_TABLE_ROWS),
  rows: z.array(tableRow).max(MAX_ROWS_PER_REQUEST).default([]),
  digest: digest.optional(),
});
export type TableByDigests = z.input<typeof tableByDigests>;
