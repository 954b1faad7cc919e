import type { OutputFormat } from '../output-format.js';
import type { ServerSettings } from '../server-flags.js';

/** Options of `weft evals`. */
export interface EvalsOptions extends ServerSettings {
  limit: number;
  format: OutputFormat;
}
