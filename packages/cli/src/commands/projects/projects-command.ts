import { defineCommand } from '../define-command.js';
import { addOutputFlags, type OutputFlags, resolveOutput } from '../output-format.js';
import { addServerFlags, type ServerFlags, resolveServerFlags } from '../server-flags.js';
import type { ProjectsOptions } from './projects-options.js';

export const projectsCommand = defineCommand<ProjectsOptions, ServerFlags & OutputFlags>({
  path: ['projects'],
  summary: 'List the projects on the server',
  configure(command) {
    // `weft projects retention` takes flags of the same names (see `weft calls`).
    command.enablePositionalOptions();
    addOutputFlags(addServerFlags(command, { project: false }), { tabular: true });
  },
  resolve(_args, flags, env) {
    const { url, token } = resolveServerFlags(flags, env);
    return { url, token, format: resolveOutput(flags) };
  },
  load: async () => (await import('./projects.js')).projects,
});

export type { ProjectsOptions } from './projects-options.js';
