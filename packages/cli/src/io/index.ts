export { type CliIo, processIo, type TextSink } from './cli-io.js';
