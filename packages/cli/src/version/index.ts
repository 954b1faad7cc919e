export { cliVersion } from './cli-version.js';
