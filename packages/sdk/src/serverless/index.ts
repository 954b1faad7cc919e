export { type Flushable, withFlush, type WithFlushOptions } from './with-flush.js';
