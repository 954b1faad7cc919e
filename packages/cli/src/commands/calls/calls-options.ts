import type { CallStatus } from '@weft/protocol';
import type { ServerSettings } from '../server-flags.js';

/** Options of `weft calls`. */
export interface CallsOptions extends ServerSettings {
  /** Only this trace, printed as a tree in start order. */
  traceId: string | undefined;
  opName: string | undefined;
  status: CallStatus | undefined;
  /** Most calls to print (the server is asked page by page). */
  limit: number;
  /** Print the calls as JSON instead of a table. */
  json: boolean;
}
