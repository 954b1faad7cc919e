export { DELETE_CHUNK_TRACES, deleteCalls, MAX_DELETE_TRACES } from './delete-calls.js';
export { DeletionAudit } from './deletion-audit.js';
export { EXPORT_CONTENT_TYPE, EXPORT_EXTENSION, exportCalls } from './export/call-export.js';
export { EXPORT_PAGE_CALLS } from './export/export-pages.js';
export { hivePartition } from './export/hive-partition.js';
export { CALL_COLUMNS as PARQUET_CALL_COLUMNS } from './export/parquet-encoder.js';
export {
  EXPORT_STATE_FILE,
  ScheduledExport,
  type ScheduledExportOptions,
} from './export/scheduled-export.js';
export { ProjectSettingsStore, type RetentionPolicy } from './project-settings.js';
export {
  type RetentionOutcome,
  RetentionSweeper,
  type RetentionSweeperOptions,
} from './retention-sweeper.js';
export {
  MIGRATED_DOCUMENT_KINDS,
  MIGRATION_KIND,
  type MigrateOptions,
  type MigrationProgress,
  migrateStorage,
} from './migrate/migrate-storage.js';
