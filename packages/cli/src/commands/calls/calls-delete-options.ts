import type { ServerSettings } from '../server-flags.js';
import type { FilterValue } from './call-filter-values.js';

/** The filters of a deletion, as the server takes them (`callDeleteRequest` without the project). */
export interface DeletionQuery {
  traceIds?: string[];
  userId?: string;
  sessionId?: string;
  attributes?: Record<string, FilterValue>;
  startedAfter?: number;
  startedBefore?: number;
  all?: true;
}

/** Options of `weft calls delete`. */
export interface CallsDeleteOptions extends Omit<ServerSettings, 'project'> {
  /** Required: a deletion never guesses its project. */
  project: string;
  query: DeletionQuery;
  dryRun: boolean;
  json: boolean;
}
