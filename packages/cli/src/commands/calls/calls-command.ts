import { CALL_ID, type CallStatus, DEFAULT_URL, PROJECT_NAME } from '@weft/protocol';
import { InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../../errors/usage-error.js';
import { defineCommand } from '../define-command.js';
import { flagOrEnv } from '../env-value.js';
import { parseHttpUrl, parseNonEmpty, parsePositiveInt } from '../flag-values.js';

/** Options of `weft calls`. */
export interface CallsOptions {
  /** Server base URL: `--url`, else `WEFT_URL`, else `DEFAULT_URL`. */
  url: string;
  /** Bearer token: `--token`, else `WEFT_API_KEY`. */
  token: string | undefined;
  /** `--project`, else `WEFT_PROJECT`; required. */
  project: string;
  /** Only this trace, printed as a tree in start order. */
  traceId: string | undefined;
  opName: string | undefined;
  status: CallStatus | undefined;
  /** Most calls to print (the server is asked page by page). */
  limit: number;
  /** Print the calls as JSON instead of a table. */
  json: boolean;
}

interface CallsFlags {
  url: string;
  project: string;
  trace: string;
  op: string;
  status: CallStatus;
  limit: number;
  json: boolean;
  token: string;
}

export const DEFAULT_CALLS_LIMIT = 50;

function parseProject(value: string): string {
  if (!PROJECT_NAME.test(value)) {
    throw new InvalidArgumentError(
      'Expected 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit.',
    );
  }
  return value;
}

function parseCallId(value: string): string {
  if (!CALL_ID.test(value)) throw new InvalidArgumentError('Expected a call id (a UUID).');
  return value.toLowerCase();
}

export const callsCommand = defineCommand<CallsOptions, CallsFlags>({
  path: ['calls'],
  summary: 'List recent calls of a project, or one trace as a tree',
  configure(command) {
    command
      .option('--url <url>', `server address (env: WEFT_URL; default: ${DEFAULT_URL})`, parseHttpUrl)
      .option('--project <name>', 'project to list (env: WEFT_PROJECT)', parseProject)
      .option('--trace <id>', 'only this trace, shown as a tree', parseCallId)
      .option('--op <name>', 'only calls of this op', parseNonEmpty)
      .addOption(
        new Option('--status <status>', 'only calls in this state').choices(['success', 'error', 'running']),
      )
      .option('--limit <n>', `most calls to print (default: ${DEFAULT_CALLS_LIMIT})`, parsePositiveInt)
      .option('--json', 'print the calls as JSON instead of a table')
      .option('--token <token>', 'bearer token, if the server needs one (env: WEFT_API_KEY)', parseNonEmpty);
  },
  resolve(_args, flags, env) {
    const project = flagOrEnv(flags.project, env, 'WEFT_PROJECT', parseProject);
    if (project === undefined) {
      throw new UsageError('No project given: pass --project <name> or set WEFT_PROJECT.');
    }
    return {
      url: flagOrEnv(flags.url, env, 'WEFT_URL', parseHttpUrl) ?? DEFAULT_URL,
      token: flagOrEnv(flags.token, env, 'WEFT_API_KEY', parseNonEmpty),
      project,
      traceId: flags.trace,
      opName: flags.op,
      status: flags.status,
      limit: flags.limit ?? DEFAULT_CALLS_LIMIT,
      json: flags.json === true,
    };
  },
  load: async () => (await import('./calls.js')).calls,
});
