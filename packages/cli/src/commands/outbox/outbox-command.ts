import { DEFAULT_URL } from '@weft/protocol';
import { defineCommand } from '../define-command.js';
import { flagOrEnv } from '../env-value.js';
import { parseHttpUrl, parseNonEmpty, parseProject } from '../flag-values.js';
import type { OutboxStatusOptions, OutboxReplayOptions } from './outbox-options.js';

/** Where the SDK keeps its outboxes by default: `./.weft/outbox/<project>`. */
export const DEFAULT_OUTBOX_DIR = './.weft/outbox';

interface OutboxFlags {
  dir: string;
  project: string;
  json: boolean;
  url: string;
  token: string;
}

const dirHelp = `outbox folder: one per project inside it, or one project's (default: ${DEFAULT_OUTBOX_DIR})`;

export const outboxStatusCommand = defineCommand<OutboxStatusOptions, OutboxFlags>({
  path: ['outbox', 'status'],
  summary: 'Show what the durable outbox holds: records the server has not taken yet',
  configure(command) {
    command
      .option('--dir <path>', dirHelp, parseNonEmpty)
      .option('--project <name>', 'only this project', parseProject)
      .option('--json', 'print the status as JSON instead of a table');
  },
  // WEFT_PROJECT is deliberately not read: status shows every project unless asked.
  resolve: (_args, flags) => ({
    dir: flags.dir ?? DEFAULT_OUTBOX_DIR,
    project: flags.project,
    json: flags.json === true,
  }),
  load: async () => (await import('./outbox-status.js')).outboxStatusCommandRun,
});

export const outboxReplayCommand = defineCommand<OutboxReplayOptions, OutboxFlags>({
  path: ['outbox', 'replay'],
  summary: 'Send what the outbox holds to the server, oldest first, and delete what it took',
  configure(command) {
    command
      .option('--dir <path>', dirHelp, parseNonEmpty)
      .option('--project <name>', 'only this project (default: every project)', parseProject)
      .option('--url <url>', `server address (env: WEFT_URL; default: ${DEFAULT_URL})`, parseHttpUrl)
      .option('--token <token>', 'bearer token, if the server needs one (env: WEFT_API_KEY)', parseNonEmpty)
      .option(
        '--json',
        'print the result as JSON ({ sent, remaining, folders, stopped }) instead of a table',
      );
  },
  resolve: (_args, flags, env) => ({
    dir: flags.dir ?? DEFAULT_OUTBOX_DIR,
    project: flags.project,
    url: flagOrEnv(flags.url, env, 'WEFT_URL', parseHttpUrl) ?? DEFAULT_URL,
    token: flagOrEnv(flags.token, env, 'WEFT_API_KEY', parseNonEmpty),
    json: flags.json === true,
  }),
  load: async () => (await import('./outbox-replay.js')).outboxReplayCommandRun,
});

export type { OutboxStatusOptions, OutboxReplayOptions } from './outbox-options.js';
