import type { SnapshotLimits } from '../values/index.js';

/**
 * The limits of the caller's structural snapshot for one client. Once the
 * client has published a value, `keep` tells the snapshot to keep published
 * values by identity (so they are recorded as their refs); until then the
 * snapshot pays nothing for that check.
 */
export class SnapshotRules {
  #limits: SnapshotLimits;

  constructor(limits: SnapshotLimits) {
    this.#limits = limits;
  }

  get limits(): SnapshotLimits {
    return this.#limits;
  }

  /** From now on, values `isPublished` accepts are kept by identity (set once). */
  keepPublished(isPublished: NonNullable<SnapshotLimits['keep']>): void {
    if (this.#limits.keep === undefined) this.#limits = { ...this.#limits, keep: isPublished };
  }
}
