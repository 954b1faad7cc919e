import type { ServerSettings } from '../server-flags.js';
import type { CallFilters } from './calls-options.js';

/** Options of `weft calls export`. */
export interface CallsExportOptions extends Omit<ServerSettings, 'project'> {
  project: string | undefined;
  filters: CallFilters;
  format: 'jsonl' | 'parquet';
  values: 'resolved' | 'digests';
  /** File to write; standard output when absent (JSON Lines only). */
  out: string | undefined;
}
