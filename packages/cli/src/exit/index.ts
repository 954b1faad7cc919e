export { ExitCode } from './exit-code.js';
export { exitCodeFor } from './exit-code-for.js';
