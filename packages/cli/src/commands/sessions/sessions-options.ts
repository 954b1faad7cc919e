import type { OutputFormat } from '../output-format.js';
import type { ServerSettings } from '../server-flags.js';

/** Options of `weft sessions`. */
export interface SessionsOptions extends ServerSettings {
  /** Only sessions active at or after this time (ms). */
  since: number | undefined;
  limit: number;
  format: OutputFormat;
}
