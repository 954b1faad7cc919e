import { defineCommand } from '../define-command.js';
import { addOutputFlags, type OutputFlags, type OutputFormat, resolveOutput } from '../output-format.js';
import {
  addServerFlags,
  type ServerFlags,
  type ServerSettings,
  resolveServerFlags,
} from '../server-flags.js';

/** Options of `weft datasets`. */
export interface DatasetsOptions extends ServerSettings {
  format: OutputFormat;
}

export const datasetsCommand = defineCommand<DatasetsOptions, ServerFlags & OutputFlags>({
  path: ['datasets'],
  summary: 'List the datasets of a project: latest version, rows, labels',
  configure(command) {
    addOutputFlags(addServerFlags(command), { tabular: true });
  },
  resolve(_args, flags, env) {
    return { ...resolveServerFlags(flags, env), format: resolveOutput(flags) };
  },
  load: async () => (await import('./datasets.js')).datasets,
});
