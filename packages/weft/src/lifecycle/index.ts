export { EXIT_CHANNEL, type ExitParticipant, registerForExit, unregisterForExit } from './exit-hooks.js';
