import { parsePositiveInt } from '../flag-values.js';
import { parseTimePoint } from '../calls/call-filter-values.js';
import { defineCommand } from '../define-command.js';
import { addOutputFlags, type OutputFlags, resolveOutput } from '../output-format.js';
import { addServerFlags, type ServerFlags, resolveServerFlags } from '../server-flags.js';
import type { SessionsOptions } from './sessions-options.js';

export const DEFAULT_SESSIONS_LIMIT = 50;

export const sessionsCommand = defineCommand<
  SessionsOptions,
  ServerFlags & OutputFlags & { since: number; limit: number }
>({
  path: ['sessions'],
  summary: 'List the sessions (conversations) of a project, most recently active first',
  configure(command) {
    addServerFlags(command)
      .option(
        '--since <time>',
        'active at or after: ISO time, epoch ms, or a duration ago (30m, 6h, 7d)',
        parseTimePoint,
      )
      .option('--limit <n>', `most sessions to print (default: ${DEFAULT_SESSIONS_LIMIT})`, parsePositiveInt);
    addOutputFlags(command, { tabular: true });
  },
  resolve(_args, flags, env) {
    return {
      ...resolveServerFlags(flags, env),
      since: flags.since,
      limit: flags.limit ?? DEFAULT_SESSIONS_LIMIT,
      format: resolveOutput(flags),
    };
  },
  load: async () => (await import('./sessions.js')).sessions,
});

export type { SessionsOptions } from './sessions-options.js';
