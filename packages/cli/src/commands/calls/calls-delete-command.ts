import { defineCommand } from '../define-command.js';
import { parseCallId } from '../flag-values.js';
import { addServerFlags, type ServerFlags, resolveServerFlags } from '../server-flags.js';
import { UsageError } from '../../errors/index.js';
import { addCallFilterFlags } from './call-filter-flags.js';
import { collect } from './call-filter-values.js';
import type { CallFilterFlags } from './call-filters-of.js';
import type { CallsDeleteOptions, DeletionQuery } from './calls-delete-options.js';

interface CallsDeleteFlags
  extends ServerFlags,
    Pick<CallFilterFlags, 'attr' | 'session' | 'user' | 'since' | 'until'> {
  trace: string[];
  all: boolean;
  dryRun: boolean;
  json: boolean;
}

export const callsDeleteCommand = defineCommand<CallsDeleteOptions, CallsDeleteFlags>({
  path: ['calls', 'delete'],
  summary: 'Delete whole traces by trace, user, session, attribute or time (admin token; try --dry-run)',
  configure(command) {
    addServerFlags(command).option('--trace <id>', 'this trace (repeat for several)', collect(parseCallId));
    addCallFilterFlags(command, ['attr', 'session', 'user', 'since', 'until'], 'traces')
      .option('--all', 'every trace of the project (no filter may be given)')
      .option('--dry-run', 'count the traces, calls, values and files that would go; delete nothing')
      .option('--json', 'print the counts as JSON ({ traces, calls, values, files, dryRun })');
  },
  resolve(_args, flags, env) {
    const { url, token, project } = resolveServerFlags(flags, env);
    if (project === undefined) {
      throw new UsageError('weft calls delete needs the project: pass --project <name> or set WEFT_PROJECT.');
    }
    const query: DeletionQuery = {
      ...(flags.trace ? { traceIds: flags.trace } : {}),
      ...(flags.user ? { userId: flags.user } : {}),
      ...(flags.session ? { sessionId: flags.session } : {}),
      ...(flags.attr ? { attributes: Object.fromEntries(flags.attr) } : {}),
      ...(flags.since === undefined ? {} : { startedAfter: flags.since }),
      ...(flags.until === undefined ? {} : { startedBefore: flags.until }),
      ...(flags.all ? { all: true as const } : {}),
    };
    if (Object.keys(query).length === 0) {
      throw new UsageError(
        'weft calls delete needs a filter (--trace, --user, --session, --attr, --since, --until), or --all to delete every trace of the project.',
      );
    }
    return { url, token, project, query, dryRun: flags.dryRun === true, json: flags.json === true };
  },
  load: async () => (await import('./calls-delete.js')).callsDelete,
});

export type { CallsDeleteOptions, DeletionQuery } from './calls-delete-options.js';
