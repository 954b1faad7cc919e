export {
  EXIT_CHANNEL,
  type ExitParticipant,
  publishExit,
  registerForExit,
  unregisterForExit,
} from './exit-hooks.js';
export type { FlushResult } from './flush-result.js';
