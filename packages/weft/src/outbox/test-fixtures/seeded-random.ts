/**
 * The seed of this run's random choices in crash tests: `WEFT_TEST_SEED` when
 * set (to replay a failing run's choices), else a fresh one. Tests print it in
 * their failure messages.
 */
export const TEST_SEED = Number(process.env.WEFT_TEST_SEED ?? Math.floor(Math.random() * 2 ** 32)) >>> 0;

/** A small seeded generator (mulberry32): numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number = TEST_SEED): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
