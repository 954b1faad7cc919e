/**
 * The one set of limits every walker of values uses — the caller's
 * snapshot, the one-pass safe encoder and the Sanitizer — so a value is cut
 * in the same places whichever path it takes (docs/values.md, "Limits").
 * They were two sets (100 / 20,000 for the snapshot, 128 / 50,000 for the
 * Sanitizer), and since every traced value is snapshotted first, the larger
 * ones only ever applied to published values.
 */

/** Nesting of containers (a Map entry counts as one level). */
export const DEFAULT_MAX_DEPTH = 100;
/** Values visited per recorded value (a repeated reference counts its whole size). */
export const DEFAULT_MAX_NODES = 20_000;
/**
 * The deepest `maxDepth` accepted anywhere: the walkers recurse, markers at
 * most double the depth, and canonical JSON refuses past 1,000.
 */
export const MAX_DEPTH_LIMIT = 400;
