import { DEFAULT_URL } from '@weft/protocol';
import type { Command } from 'commander';
import type { CliIo } from '../io/index.js';
import { flagOrEnv } from './env-value.js';
import { parseHttpUrl, parseNonEmpty, parseProject } from './flag-values.js';

/** Flags of every command that reads from a server. */
export interface ServerFlags {
  url: string;
  project: string;
  token: string;
}

/** Where a reading command goes: server, credentials, project. */
export interface ServerSettings {
  /** `--url`, else `WEFT_URL`, else `DEFAULT_URL`. */
  url: string;
  /** `--token`, else `WEFT_API_KEY`. */
  token: string | undefined;
  /**
   * `--project`, else `WEFT_PROJECT`; when neither is set, the command uses
   * the server's only project or lists them (`resolveProject`).
   */
  project: string | undefined;
}

/** Declares `--url`, `--project` (unless `project: false`) and `--token`. */
export function addServerFlags(command: Command, { project = true }: { project?: boolean } = {}): Command {
  command.option('--url <url>', `server address (env: WEFT_URL; default: ${DEFAULT_URL})`, parseHttpUrl);
  if (project) {
    command.option(
      '--project <name>',
      "project (env: WEFT_PROJECT; default: the server's only project)",
      parseProject,
    );
  }
  return command.option(
    '--token <token>',
    'bearer token, if the server needs one (env: WEFT_API_KEY)',
    parseNonEmpty,
  );
}

/** Resolves the server flags against the environment. */
export function resolveServerFlags(flags: Partial<ServerFlags>, env: CliIo['env']): ServerSettings {
  return {
    url: flagOrEnv(flags.url, env, 'WEFT_URL', parseHttpUrl) ?? DEFAULT_URL,
    token: flagOrEnv(flags.token, env, 'WEFT_API_KEY', parseNonEmpty),
    project: flagOrEnv(flags.project, env, 'WEFT_PROJECT', parseProject),
  };
}
