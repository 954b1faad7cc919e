import { z } from 'zod';
import { callId, projectName } from './names.js';
import { timestampMs } from './common.js';
import { attributeFilterValue, callQuery, callValuesForm } from './query.js';
import { sessionId } from './sessions.js';

/** The longest retention a project may set: 100 years (a larger figure is a typo, not a policy). */
export const MAX_RETENTION_DAYS = 36_500;

/** Days calls are kept: a whole number from 1 to {@link MAX_RETENTION_DAYS}. */
export const retentionDays = z
  .number({ error: 'must be a number of days' })
  .int({ error: 'must be a whole number of days' })
  .min(1, {
    error: (issue) => `must be at least 1 day (got ${String(issue.input)}); to keep calls forever, set null`,
  })
  .max(MAX_RETENTION_DAYS, {
    error: (issue) => `must be at most ${MAX_RETENTION_DAYS} days (100 years), got ${String(issue.input)}`,
  });

/**
 * A keep rule: the filters of a calls query (ANDed, as in `callQuery`). A
 * trace with a call that matches is exempt from retention, whole.
 */
export const keepRuleFilter = callQuery
  .pick({
    opName: true,
    status: true,
    text: true,
    sessionId: true,
    attributes: true,
    userId: true,
    tag: true,
    feedback: true,
  })
  .refine((filter) => Object.values(filter).some((value) => value !== undefined), {
    error: 'a keep rule needs at least one filter (a rule without one would keep every call)',
  });

export const keepRule = z.strictObject({
  /** A name people recognise the rule by. */
  name: z.string().min(1).max(200),
  filter: keepRuleFilter,
});
export type KeepRule = z.infer<typeof keepRule>;

/**
 * A project's data lifecycle settings. `retentionDays: null` keeps the
 * project's calls until deleted; absent, the server's default applies.
 * Whatever the retention, calls with feedback, calls that are rows of a
 * dataset, evaluation runs and traces matched by a keep rule are kept.
 */
export const projectSettings = z.strictObject({
  retentionDays: retentionDays.nullable().optional(),
  keepRules: z.array(keepRule).max(50).default([]),
});
export type ProjectSettings = z.input<typeof projectSettings>;
export type ProjectSettingsParsed = z.output<typeof projectSettings>;

/** A project's settings as the server answers them, with the retention that applies. */
export const projectSettingsResponse = z.object({
  project: projectName,
  /** What the project set (`undefined`: the server default applies). */
  retentionDays: z.number().int().positive().nullable().optional(),
  keepRules: z.array(keepRule),
  /** The server's default retention (`null`: none). */
  defaultRetentionDays: z.number().int().positive().nullable(),
  /** The retention in force: the project's, else the server's (`null`: calls are kept). */
  effectiveRetentionDays: z.number().int().positive().nullable(),
});
export type ProjectSettingsResponse = z.infer<typeof projectSettingsResponse>;

/**
 * A deletion on request: every trace with a call that matches all the
 * filters is deleted whole. A query without a filter is refused unless `all`
 * is set, and so is one whose filters match every call of the project.
 */
export const callDeleteRequest = z
  .strictObject({
    project: projectName,
    traceIds: z.array(callId).min(1).max(10_000).optional(),
    userId: z.string().min(1).max(1_000).optional(),
    sessionId: sessionId.optional(),
    attributes: z
      .record(z.string().min(1).max(256), attributeFilterValue)
      .refine((r) => Object.keys(r).length > 0 && Object.keys(r).length <= 20, 'from 1 to 20 attributes')
      .optional(),
    /** Inclusive lower bound on `startedAt`. */
    startedAfter: timestampMs.optional(),
    /** Exclusive upper bound on `startedAt`. */
    startedBefore: timestampMs.optional(),
    /** Deletes every call of the project (no filter may be given). */
    all: z.literal(true).optional(),
    /** Counts what would be deleted, deletes nothing. */
    dryRun: z.boolean().default(false),
  })
  .superRefine((request, context) => {
    const filters = DELETE_FILTERS.filter((key) => request[key] !== undefined);
    if (request.all === true && filters.length > 0) {
      context.addIssue({
        code: 'custom',
        path: ['all'],
        message: `all deletes every call of the project; it cannot be combined with ${filters.join(', ')}`,
      });
    }
    if (request.all !== true && filters.length === 0) {
      context.addIssue({
        code: 'custom',
        path: [],
        message: `a deletion needs a filter (${DELETE_FILTERS.join(', ')}), or all: true to delete every call of the project`,
      });
    }
  });
export type CallDeleteRequest = z.input<typeof callDeleteRequest>;
export type CallDeleteRequestParsed = z.output<typeof callDeleteRequest>;

/** The filters of a {@link callDeleteRequest}. */
export const DELETE_FILTERS = [
  'traceIds',
  'userId',
  'sessionId',
  'attributes',
  'startedAfter',
  'startedBefore',
] as const;

/** What a deletion removed (or, for a dry run, would remove now). */
export const deletionCounts = z.object({
  traces: z.number().int().nonnegative(),
  calls: z.number().int().nonnegative(),
  /** Deduplicated values no remaining call refers to. */
  values: z.number().int().nonnegative(),
  /** Files no remaining call, value, object or table refers to. */
  files: z.number().int().nonnegative(),
});
export type DeletionCounts = z.infer<typeof deletionCounts>;

export const callDeleteResponse = deletionCounts.extend({ dryRun: z.boolean() });
export type CallDeleteResponse = z.infer<typeof callDeleteResponse>;

/** What one retention pass over a project did (`POST …/retention/run`). */
export const retentionRunResponse = deletionCounts.extend({
  project: projectName,
  /** Traces wholly started before this expired (`null`: the project keeps its calls). */
  expiredBefore: timestampMs.nullable(),
  /** Expired traces kept by feedback, datasets, evaluations or keep rules (counted per step of the pass). */
  keptTraces: z.number().int().nonnegative(),
});
export type RetentionRunResponse = z.infer<typeof retentionRunResponse>;

/** One entry of the deletion audit log: who, when, what query, counts — never the deleted content. */
export const deletionAuditEntry = z.object({
  at: timestampMs,
  project: projectName,
  /** Who asked: `admin token`, `no token (loopback server)` (a server without tokens) or `retention`. */
  actor: z.string(),
  /** The query as given (filters only). */
  query: z.record(z.string(), z.unknown()),
  counts: deletionCounts,
});
export type DeletionAuditEntry = z.infer<typeof deletionAuditEntry>;

export const deletionAuditResponse = z.object({ entries: z.array(deletionAuditEntry) });
export type DeletionAuditResponse = z.infer<typeof deletionAuditResponse>;

/** Export formats: JSON Lines (one call per line) or Parquet (one row per call). */
export const exportFormat = z.enum(['jsonl', 'parquet']);
export type ExportFormat = z.infer<typeof exportFormat>;

/** How an export writes inputs, output and attributes: with deduplicated values expanded, or their digests left as markers. */
export const exportValues = callValuesForm;
export type ExportValues = z.infer<typeof exportValues>;

/** The filters and order of a calls query, as an export takes them (no page size, no cursor). */
export const exportQuery = callQuery.omit({ project: true, limit: true, cursor: true, values: true });

/**
 * `GET /v1/calls/export` parameters: the project, the format, how values are
 * written, and any calls query's filters and sort as JSON in `query`.
 */
export const callExportParams = z.strictObject({
  project: projectName,
  format: exportFormat.default('jsonl'),
  values: exportValues.default('resolved'),
  query: z
    .string()
    .max(20_000)
    .optional()
    .transform((text, context) => {
      if (text === undefined) return exportQuery.parse({});
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        context.addIssue({ code: 'custom', message: 'must be a calls query as JSON' });
        return z.NEVER;
      }
      const parsed = exportQuery.safeParse(json);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) context.addIssue({ ...issue, code: 'custom' });
        return z.NEVER;
      }
      return parsed.data;
    }),
});
export type CallExportParams = z.input<typeof callExportParams>;
export type CallExportParamsParsed = z.output<typeof callExportParams>;
