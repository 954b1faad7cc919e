/**
 * What the snapshot leaves where it could not copy: a getter that threw, or a
 * limit that was reached. It holds the raw facts only (describing a thrown
 * value costs user code and time, which the caller's turn cannot afford); the
 * sanitizer turns it into the JSON-like marker later, off the caller's turn.
 */
export class SnapshotMarker {
  // A private brand: `#brand in x` sees through no proxy trap and cannot be faked.
  readonly #brand = true;

  private constructor(
    readonly kind: 'unreadable' | 'truncated',
    /** For `unreadable`: what was thrown. */
    readonly thrown: unknown,
    /** For `unreadable`: what was being read. */
    readonly reading: 'getter' | 'keys',
    /** For `truncated`: why. */
    readonly reason: 'depth' | 'nodes',
    /** For `truncated` at a container's tail: how many entries were left out; -1 for a whole value. */
    readonly omitted: number,
    /** For a `truncated` whole value: what kind of container it was. */
    readonly type: string,
  ) {}

  static unreadable(thrown: unknown, reading: 'getter' | 'keys' = 'getter'): SnapshotMarker {
    return new SnapshotMarker('unreadable', thrown, reading, 'nodes', -1, '');
  }

  static truncatedValue(reason: 'depth' | 'nodes', type: string): SnapshotMarker {
    return new SnapshotMarker('truncated', undefined, 'getter', reason, -1, type);
  }

  static truncatedTail(omitted: number): SnapshotMarker {
    return new SnapshotMarker('truncated', undefined, 'getter', 'nodes', omitted, '');
  }

  static is(value: object): value is SnapshotMarker {
    return #brand in value;
  }
}
