import { describeThrown } from './describe-thrown.js';
import {
  type Marker,
  truncatedTail,
  truncatedValue,
  type UnreadableReason,
  unreadableMarker,
} from './markers.js';
import type { SanitizeOptions } from './sanitize-options.js';
import type { SnapshotMarker } from './snapshot-marker.js';
import { childPath, type Frame, type Key } from './walk-frame.js';

/**
 * What the walk could not read: each failure is reported to `onError` with
 * its path (never throwing into the walk), and the value's place gets a
 * marker saying why.
 */
export class WalkErrors {
  readonly #onError: SanitizeOptions['onError'];

  constructor(onError: SanitizeOptions['onError']) {
    this.#onError = onError;
  }

  report(error: unknown, path: readonly Key[]): void {
    try {
      this.#onError?.(error, path);
    } catch {
      // The error channel itself failed; there is nowhere left to report to, and throwing is not allowed.
    }
  }

  /** Reports `thrown` at `frame`'s entry `key` and returns the marker that takes its place. */
  unreadable(reason: UnreadableReason, thrown: unknown, frame: Frame, key: Key): Marker {
    this.report(thrown, childPath(frame, key));
    return unreadableMarker(reason, describeThrown(thrown));
  }

  /** The safe form of a marker the snapshot left on the caller's turn (a value it could not read, or a truncation). */
  fromSnapshot(marker: SnapshotMarker, frame: Frame, key: Key): Marker {
    if (marker.kind === 'unreadable') return this.unreadable(marker.reading, marker.thrown, frame, key);
    return marker.omitted >= 0
      ? truncatedTail('nodes', marker.omitted)
      : truncatedValue(marker.reason, marker.type);
  }
}
