export type { ChunkKind, StreamAccumulator } from './stream-accumulator.js';
