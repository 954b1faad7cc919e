/**
 * The attributes replay records, so a replay, a fork and their served calls
 * can be found and told apart (filter calls by them).
 */
export const REPLAY_ATTRIBUTES = {
  /** On a replay's (or fork's) root: the trace id it replays. */
  replayOf: 'weft.replay.of',
  /** On a served call: the recorded call id it was served from. */
  served: 'weft.replay.served',
  /** On the call where a replay diverged: its step path. */
  diverged: 'weft.replay.diverged',
  /** On a fork's root: the recorded call id it forks at. */
  forkAt: 'weft.fork.at',
  /** On a fork's root: the step path it forks at. */
  forkPath: 'weft.fork.path',
  /** On the fork step's call: `output` (served an edited output) or `args` (ran live with edited arguments). */
  forkEdited: 'weft.fork.edited',
} as const;
