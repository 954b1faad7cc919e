/**
 * The discriminating key of every marker. A marker is a plain object whose
 * `_weft` member names what it stands for; everything else in it is data
 * about the replaced value. docs/values.md has the full table.
 */
export const MARKER_KEY = '_weft';

/**
 * The member an object gets when some of its keys were not walked (too many
 * keys, or the node budget ran out); its value is a `truncated` marker.
 */
export const TRUNCATED_KEYS_MEMBER = '_weft_truncated';

/** Why a value or the tail of a container was cut. */
export type TruncationReason = 'depth' | 'nodes' | 'length' | 'string';

/** Why a value could not be read. */
export type UnreadableReason = 'getter' | 'keys' | 'toJSON' | 'hook' | 'value';

/** One JSON-like marker; built only through the functions below so the shapes stay consistent. */
export type Marker = { readonly [MARKER_KEY]: string } & Record<string, unknown>;

/** A marker for a string longer than `maxStringLength`: its original length and its first characters. */
export function truncatedString(length: number, head: string): Marker {
  return { [MARKER_KEY]: 'truncated', reason: 'string', length, value: head };
}

/** A marker closing a container whose remaining `omitted` entries were not walked. */
export function truncatedTail(reason: 'length' | 'nodes', omitted: number): Marker {
  return { [MARKER_KEY]: 'truncated', reason, omitted };
}

/** A marker for a whole value that was not walked: too deep, or past the node budget. */
export function truncatedValue(reason: 'depth' | 'nodes', type: string): Marker {
  return { [MARKER_KEY]: 'truncated', reason, type };
}

/** A marker for a reference back to an enclosing value; `path` leads from the root of the result to it. */
export function cycleMarker(path: readonly (string | number)[]): Marker {
  return { [MARKER_KEY]: 'cycle', path: [...path] };
}

/** A marker for a value whose reading threw; `error` describes what was thrown. */
export function unreadableMarker(reason: UnreadableReason, error: string): Marker {
  return { [MARKER_KEY]: 'unreadable', reason, error };
}

/** Stand-in written where a hook's ref is still pending; replaced when the hook settles. */
export function pendingMarker(): Marker {
  return { [MARKER_KEY]: 'pending' };
}
