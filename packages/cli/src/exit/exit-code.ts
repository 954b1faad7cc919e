/**
 * What `weft` exits with. Scripts branch on these, so they are part of the
 * public contract and documented in docs/cli.md.
 */
export const ExitCode = {
  /** The command did what was asked. */
  ok: 0,
  /** It failed at run time: server unreachable, server error, I/O error. */
  failure: 1,
  /** The command line was wrong: unknown flag, bad value, missing required setting. */
  usage: 2,
  /** The server refused the credentials (missing or wrong token). */
  authRefused: 3,
  /** The thing asked for (a trace, a call, a run) does not exist. */
  notFound: 4,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
