export { type Arena, ARENA_BYTES, arenaOf, EMPTY_ARENA, keepSpare, takeArena } from './arena.js';
export { ReusableBytes } from './reusable-bytes.js';
