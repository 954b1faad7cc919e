/** Something text can be written to: `process.stdout`, or a buffer in tests. */
export interface TextSink {
  write(chunk: string): unknown;
}

/**
 * Everything a command touches outside its options. Commands get it passed
 * in rather than reaching for `process`, so tests run them in-process.
 */
export interface CliIo {
  stdout: TextSink;
  stderr: TextSink;
  /** Environment the command reads its fallbacks from (`WEFT_URL`, …). */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Aborted when a long-running command (`weft serve`) should stop. When
   * absent, such a command stops on SIGINT or SIGTERM.
   */
  signal?: AbortSignal | undefined;
}

/** The real process's streams and environment. */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env };
}
