export { deletionCounts, noDeletion } from './deletion-counts.js';
export { type GarbagePhase, nextGarbageCursor, readGarbageCursor } from './garbage-cursor.js';
