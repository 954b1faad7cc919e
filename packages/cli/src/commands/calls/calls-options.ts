import type { CallQuery } from '@weft/protocol';
import type { OutputFormat } from '../output-format.js';
import type { ServerSettings } from '../server-flags.js';

/** The filters of a call query that `weft calls` sets from its flags. */
export type CallFilters = Omit<CallQuery, 'project' | 'limit' | 'cursor' | 'sort'>;

/** Options of `weft calls`. */
export interface CallsOptions extends ServerSettings {
  /** Only this trace, printed as a tree in start order. */
  traceId: string | undefined;
  /** Every other filter (`--op`, `--status`, `--text`, `--attr`, …), as the call query takes them. */
  filters: CallFilters;
  /** The order; by default newest first, a trace in start order. */
  sort: CallQuery['sort'] | undefined;
  /** Most calls to print (the server is asked page by page). */
  limit: number;
  format: OutputFormat;
}
