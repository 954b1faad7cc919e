import { defineCommand } from '../define-command.js';
import { addOutputFlags, type OutputFlags, resolveOutput } from '../output-format.js';
import { addServerFlags, type ServerFlags, resolveServerFlags } from '../server-flags.js';
import type { DatasetsOptions } from './datasets-options.js';

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

export type { DatasetsOptions } from './datasets-options.js';
