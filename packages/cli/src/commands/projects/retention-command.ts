import { MAX_RETENTION_DAYS } from '@weft/protocol';
import { InvalidArgumentError } from 'commander';
import { defineCommand } from '../define-command.js';
import { addServerFlags, type ServerFlags, resolveServerFlags } from '../server-flags.js';
import type { RetentionChange, RetentionOptions } from './retention-options.js';

interface RetentionFlags extends ServerFlags {
  set: RetentionChange;
  json: boolean;
}

/** `30`, `none` or `default`. */
export function parseRetention(text: string): RetentionChange {
  if (text === 'none' || text === 'default') return text;
  const days = Number(text);
  if (!/^\d+$/.test(text) || days < 1 || days > MAX_RETENTION_DAYS) {
    throw new InvalidArgumentError(
      `Expected days from 1 to ${MAX_RETENTION_DAYS}, none (keep calls until deleted) or default (the server's).`,
    );
  }
  return days;
}

export const retentionCommand = defineCommand<RetentionOptions, RetentionFlags>({
  path: ['projects', 'retention'],
  summary: "Show or set a project's retention (setting it needs the admin token)",
  configure(command) {
    addServerFlags(command)
      .option(
        '--set <days|none|default>',
        'keep calls this many days, until deleted, or as the server default',
        parseRetention,
      )
      .option('--json', 'print the settings as the API answers them');
  },
  resolve(_args, flags, env) {
    return { ...resolveServerFlags(flags, env), set: flags.set, json: flags.json === true };
  },
  load: async () => (await import('./retention.js')).retention,
});

export type { RetentionChange, RetentionOptions } from './retention-options.js';
