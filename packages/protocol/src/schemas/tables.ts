import { z } from 'zod';
import { digest, projectName } from '../refs/names.js';
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
