/** mulberry32: a small seeded PRNG, so a test's draws are the same on every run with the same seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The seed of a randomized test: `WEFT_TEST_SEED` when set (to replay a
 * failure), else a fixed default, so every run draws the same values.
 */
export function testSeed(fallback: number): number {
  const fromEnv = Number(process.env.WEFT_TEST_SEED);
  return Number.isInteger(fromEnv) ? fromEnv : fallback;
}
