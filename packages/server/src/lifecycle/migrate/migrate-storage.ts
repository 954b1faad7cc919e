import type { Storage } from '../../storage/index.js';
import { copyCallsPage } from './copy-calls.js';
import { copyObjects } from './copy-objects.js';

/**
 * Monitoring documents a migration copies, by kind: evaluator and alert
 * rules with their state, dashboards, project settings (retention), the
 * deletion audit's cursor and webhook deliveries not yet made — every kind
 * the server writes (`evaluators/`, `alerts/`, `routes/dashboard-routes.ts`,
 * `lifecycle/`, `webhooks/`).
 */
export const MIGRATED_DOCUMENT_KINDS = [
  'evaluator-rule',
  'evaluator-state',
  'evaluator-spend',
  'alert-rule',
  'alert-runtime',
  'dashboard',
  'lifecycle.settings',
  'lifecycle.audit',
  'webhook-delivery',
] as const;

/** The target's document of a migration's progress per project (kind; the key is the source's name). */
export const MIGRATION_KIND = 'weft.migration';

/** Where a project's migration from one source stands, kept in the target. */
interface MigrationState {
  /** The calls page to copy next (`undefined`: from the first call). */
  cursor?: string | undefined;
  /** Totals copied so far, over every run. */
  copied: Record<string, number>;
}

/** One step of a migration, for progress lines. */
export interface MigrationProgress {
  project: string;
  /** `calls` after each page, `objects` and `documents` once per project, `done` at the end of a project. */
  phase: 'calls' | 'objects' | 'documents' | 'done';
  /** Totals copied into the target for this project so far (over every run). */
  copied: Readonly<Record<string, number>>;
}

/** What `migrateStorage` needs. */
export interface MigrateOptions {
  source: Storage;
  target: Storage;
  /** Names the source in the target's progress documents (e.g. the redacted source URL): a re-run with the same name resumes. */
  sourceName: string;
  /** Called after each step. */
  onProgress?: (progress: MigrationProgress) => void;
}

/**
 * Copies every project of `source` into `target` and answers what this run
 * copied per project (counts of what was new to the target) through the storage
 * contract (any engine to any engine): calls with their feedback, values
 * and files; objects (datasets, evaluations, prompts) with their tables and
 * labels; monitoring documents. Resumable and idempotent: progress is kept
 * in the target per project (the calls cursor, a document of kind
 * `weft.migration`) after every page, values and files the target stores
 * are not read again, and every write is an idempotent upsert, so a re-run
 * continues where the last one stopped and copies nothing twice; calls the
 * source took in since are copied by the next run.
 *
 * Not copied: calls whose start never arrived (the source does not list
 * them), monitoring logs (alert history, webhook delivery log: kept where
 * they were), and metrics rollups, which the target builds from the calls
 * as it stores them.
 */
export async function migrateStorage(
  options: MigrateOptions,
): Promise<Record<string, Record<string, number>>> {
  const { source, target, sourceName } = options;
  const totals: Record<string, Record<string, number>> = {};
  for (const { name: project } of await source.listProjects()) {
    const stored = await target.monitoring.readDocument<MigrationState>(project, MIGRATION_KIND, sourceName);
    const state: MigrationState = stored?.value ?? { copied: {} };
    const run: Record<string, number> = {};
    const add = (counts: object) => {
      for (const [key, value] of Object.entries(counts)) {
        if (typeof value !== 'number') continue;
        state.copied[key] = (state.copied[key] ?? 0) + value;
        run[key] = (run[key] ?? 0) + value;
      }
    };
    const report = (phase: MigrationProgress['phase']) =>
      options.onProgress?.({ project, phase, copied: { ...state.copied } });
    // Objects first: evaluations and datasets name calls, never the reverse.
    add(await copyObjects(source, target, project));
    report('objects');
    for (;;) {
      const { cursor, more, ...counts } = await copyCallsPage(source, target, project, state.cursor);
      add(counts);
      // After the last call copied: calls started later are copied by the next run.
      state.cursor = cursor;
      await target.monitoring.writeDocument(project, MIGRATION_KIND, sourceName, state);
      report('calls');
      if (!more) break;
    }
    add({ documents: await copyDocuments(source, target, project) });
    await target.monitoring.writeDocument(project, MIGRATION_KIND, sourceName, state);
    report('documents');
    totals[project] = run;
    report('done');
  }
  return totals;
}

/** Copies the project's monitoring documents the target lacks or holds older; returns how many it wrote. */
async function copyDocuments(source: Storage, target: Storage, project: string): Promise<number> {
  let written = 0;
  for (const kind of MIGRATED_DOCUMENT_KINDS) {
    const existing = new Map(
      (await target.monitoring.listDocuments(kind, project)).map((d) => [d.key, JSON.stringify(d.value)]),
    );
    for (const document of await source.monitoring.listDocuments(kind, project)) {
      if (existing.get(document.key) === JSON.stringify(document.value)) continue;
      await target.monitoring.writeDocument(project, kind, document.key, document.value);
      written += 1;
    }
  }
  return written;
}
