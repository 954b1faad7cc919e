import type { OutputFormat } from '../output-format.js';
import type { ServerSettings } from '../server-flags.js';

/** Options of `weft projects`. */
export interface ProjectsOptions extends Omit<ServerSettings, 'project'> {
  format: OutputFormat;
}
