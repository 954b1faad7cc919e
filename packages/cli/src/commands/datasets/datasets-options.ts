import type { OutputFormat } from '../output-format.js';
import type { ServerSettings } from '../server-flags.js';

/** Options of `weft datasets`. */
export interface DatasetsOptions extends ServerSettings {
  format: OutputFormat;
}
