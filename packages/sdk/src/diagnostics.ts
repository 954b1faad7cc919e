// `@weft/sdk/diagnostics`: the `node:diagnostics_channel` names the SDK publishes on,
// for operators who want problems, exits and file uploads in their own logs.
export { PROBLEM_CHANNEL, type PipelineProblem } from './diagnostics/index.js';
export { EXIT_CHANNEL } from './lifecycle/index.js';
export { FILE_CHANNEL, type FileEvent } from './files/index.js';
