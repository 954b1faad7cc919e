import type { ServerSettings } from '../server-flags.js';

/** What `--set` asks: a number of days, `none` (keep calls until deleted) or `default` (the server's). */
export type RetentionChange = number | 'none' | 'default';

/** Options of `weft projects retention`. */
export interface RetentionOptions extends ServerSettings {
  /** Absent: print the settings only. */
  set: RetentionChange | undefined;
  json: boolean;
}
