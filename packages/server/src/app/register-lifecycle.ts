import type { FastifyInstance } from 'fastify';
import {
  DeletionAudit,
  ProjectSettingsStore,
  RetentionSweeper,
  ScheduledExport,
} from '../lifecycle/index.js';
import type { ServerOptionsParsed } from '../options/index.js';
import {
  registerDeletionRoutes,
  registerExportRoutes,
  registerProjectSettingsRoutes,
} from '../routes/index.js';
import type { Storage } from '../storage/index.js';

/** The server options of the data lifecycle. */
export type LifecycleOptions = Pick<
  ServerOptionsParsed,
  | 'retentionDays'
  | 'retentionIntervalMs'
  | 'exportDir'
  | 'exportFormat'
  | 'exportIntervalMs'
  | 'backgroundJobs'
>;

/**
 * The data lifecycle on a /v1 scope (issue 28): deletion on request,
 * export, project settings, and the background jobs — retention passes and,
 * with `exportDir`, the scheduled export — which stop when the app closes
 * (before its owner closes the storage).
 */
export function registerLifecycle(
  v1: FastifyInstance,
  { storage, options }: { storage: Storage; options: LifecycleOptions },
): void {
  const settings = new ProjectSettingsStore(storage, {
    defaultRetentionDays: options.retentionDays ?? null,
  });
  const audit = new DeletionAudit(storage);
  const sweeper = new RetentionSweeper({
    storage,
    settings,
    audit,
    intervalMs: options.retentionIntervalMs,
    onError: (error, project) => v1.log.error({ err: error, project }, 'retention pass failed'),
  });
  const scheduled =
    options.exportDir === undefined
      ? undefined
      : new ScheduledExport({
          storage,
          dir: options.exportDir,
          format: options.exportFormat,
          intervalMs: options.exportIntervalMs,
          onError: (error) => v1.log.error({ err: error }, 'scheduled export failed'),
        });
  v1.addHook('onReady', async () => {
    if (!options.backgroundJobs) return;
    sweeper.start();
    scheduled?.start();
  });
  v1.addHook('onClose', async () => {
    await Promise.all([sweeper.close(), scheduled?.close()]);
  });
  registerDeletionRoutes(v1, { storage, audit });
  registerExportRoutes(v1, { storage });
  registerProjectSettingsRoutes(v1, { settings, sweeper, audit });
}
