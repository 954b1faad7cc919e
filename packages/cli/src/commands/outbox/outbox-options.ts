/** Options of `weft outbox status`. */
export interface OutboxStatusOptions {
  /** A folder of per-project outbox folders, or one outbox folder. */
  dir: string;
  /** Only this project's folder. */
  project: string | undefined;
  /** Print the status as JSON instead of a table. */
  json: boolean;
}

/** Options of `weft outbox replay`. */
export interface OutboxReplayOptions {
  dir: string;
  project: string | undefined;
  /** `--url`, else `WEFT_URL`, else `DEFAULT_URL`. */
  url: string;
  /** `--token`, else `WEFT_API_KEY`. */
  token: string | undefined;
  /** Print the replay's result (`replayOutbox`'s) as JSON instead of a table. */
  json: boolean;
}
