import { z } from 'zod';
import { projectName } from './names.js';
import { timestampMs } from './common.js';

/** A session (conversation) id: any non-empty string up to 256 characters. */
export const sessionId = z.string().min(1).max(256);

/** A page of one project's sessions, most recently active first. */
export const sessionQuery = z.strictObject({
  project: projectName,
  /** Only sessions active at or after this time. */
  activeAfter: timestampMs.optional(),
  limit: z.number().int().min(1).max(1_000).default(100),
  cursor: z.string().max(1_000).optional(),
});
export type SessionQuery = z.input<typeof sessionQuery>;
export type SessionQueryParsed = z.output<typeof sessionQuery>;

/**
 * One session's totals. `turns` counts its traces (root calls); tokens and
 * cost sum the root calls' summaries (which include their descendants);
 * `errors` counts calls of any depth that ended in an error.
 */
export const sessionSummary = z.object({
  sessionId,
  turns: z.number().int().nonnegative(),
  firstStartedAt: timestampMs,
  lastActivityAt: timestampMs,
  totalTokens: z.number().nonnegative(),
  /** Absent when no call of the session had a priced model. */
  costUsd: z.number().nonnegative().optional(),
  errors: z.number().int().nonnegative(),
});
export type SessionSummary = z.infer<typeof sessionSummary>;

export const sessionQueryResponse = z.object({
  sessions: z.array(sessionSummary),
  nextCursor: z.string().nullable(),
});
export type SessionQueryResponse = z.infer<typeof sessionQueryResponse>;

/** The projects a server stores, for pickers. */
export const projectListResponse = z.object({
  projects: z.array(
    z.object({
      name: projectName,
      callCount: z.number().int().nonnegative(),
      lastCallAt: timestampMs.nullable(),
    }),
  ),
});
export type ProjectListResponse = z.infer<typeof projectListResponse>;
