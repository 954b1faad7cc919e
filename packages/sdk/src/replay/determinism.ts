import { op } from '../client/index.js';

/**
 * The current time in epoch milliseconds, recorded as a call (op
 * `weft.now`) so a replay serves the recorded time: use it instead of
 * `Date.now()` inside ops whose inputs or results depend on the time.
 */
export const now: () => number = op(() => Date.now(), { name: 'weft.now' });

/** A random seed, recorded as a call (op `weft.seed`) so a replay serves the recorded seed. */
const seed: () => number = op(() => Math.floor(Math.random() * 2 ** 32), { name: 'weft.seed' });

/**
 * A seeded random number generator (`() => number` in [0, 1), like
 * `Math.random`). Its seed is drawn once and recorded (op `weft.seed`), so
 * a replay draws the same sequence; give a seed to fix it yourself.
 */
export function seededRandom(fixedSeed?: number): () => number {
  let state = (fixedSeed ?? seed()) >>> 0;
  // mulberry32: small, fast, and good enough for sampling and shuffling (not for secrets).
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
