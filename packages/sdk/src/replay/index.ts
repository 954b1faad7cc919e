export { now, seededRandom } from './determinism.js';
export { REPLAY_ATTRIBUTES } from './replay-attributes.js';
export {
  type Divergence,
  RecordedError,
  ReplayDivergenceError,
  ReplayNotFoundError,
} from './replay-errors.js';
export type { ReplayMode } from './replay-session.js';
export { fork, type ForkOptions, replay, type ReplayOptions, type ReplayResult } from './replay.js';
