import { arrayLength } from './array-length.js';
import { className } from './class-name.js';
import { mapEntriesOf, setValuesOf } from './collection-entries.js';
import { errorView } from './error-view.js';
import { MARKER_KEY, type Marker, truncatedValue } from './markers.js';
import type { ResolvedSanitizeOptions } from './sanitize-options.js';
import { CONTAINER_NAMES, ObjectKind, walkedKeys } from './value-kinds.js';
import type { WalkErrors } from './walk-errors.js';
import { type Container, type Frame, type Key, Kind } from './walk-frame.js';

/**
 * How the walker reads one container and where it writes it: each walked
 * kind (array, plain object, class instance, Error, Map, Set) is read
 * through its own view, and the walker opens one frame per view.
 */
export class ContainerView {
  constructor(
    readonly kind: Kind,
    /** What the frame reads: the object itself, or a view of it (an Error's fields, a Map's entries). */
    readonly src: object,
    readonly keys: readonly string[] | null,
    /** Entries that can be read from `src`. */
    readonly available: number,
    /** Entries the value has (more than `available` when a collection was cut at the array limit). */
    readonly total: number,
    /** What stands at the value's place in its parent: `out`, or a marker wrapping it. */
    readonly place: unknown,
    /** The container the frame fills. */
    readonly out: Container,
    /** The member of `place` holding `out` (null when `place` is `out`). */
    readonly suffix: string | null,
  ) {}
}

/**
 * The view a walked container (`kind`: a plain array or object, an Error, a
 * Map, a Set or a class instance) is read through at `depth` as the entry
 * `key` of `parent`, or the marker standing for it: past `maxDepth`, or
 * `unreadable` when its keys could not be listed (a proxy's `ownKeys` trap).
 */
export function containerViewOf(
  kind: ObjectKind,
  value: object,
  depth: number,
  options: ResolvedSanitizeOptions,
  errors: WalkErrors,
  parent: Frame,
  key: Key,
): ContainerView | Marker {
  const name = kind === ObjectKind.Instance ? className(value) : undefined;
  if (depth > options.maxDepth) {
    const type = kind === ObjectKind.Error ? className(value) : CONTAINER_NAMES[kind as 0 | 1 | 2 | 3];
    return truncatedValue('depth', name ?? type);
  }
  const max = options.maxArrayLength;
  switch (kind) {
    case ObjectKind.Array:
      return arrayView(value as unknown[], arrayLength(value as unknown[]));
    case ObjectKind.Error:
      return errorFieldsView(value, max, options.isRedactedKey);
    case ObjectKind.Map:
    case ObjectKind.Set:
      return collectionView(value, kind === ObjectKind.Map, max);
  }
  let keys: string[];
  try {
    keys = walkedKeys(value);
  } catch (thrown) {
    return errors.unreadable('keys', thrown, parent, key);
  }
  return name === undefined ? objectView(value, keys) : instanceView(value, keys, name);
}

/** A plain array, walked into a fresh array. */
function arrayView(value: unknown[], length: number): ContainerView {
  const out: unknown[] = [];
  return new ContainerView(Kind.Items, value, null, length, length, out, out, null);
}

/** A plain object, walked into a fresh object. */
function objectView(value: object, keys: readonly string[]): ContainerView {
  const out: Record<string, unknown> = {};
  return new ContainerView(Kind.Fields, value, keys, keys.length, keys.length, out, out, null);
}

/** A class instance: its fields inside an `instance` marker naming its class. */
function instanceView(value: object, keys: readonly string[], name: string): ContainerView {
  const fields: Record<string, unknown> = {};
  const marker: Marker = { [MARKER_KEY]: 'instance', class: name, value: fields };
  return new ContainerView(Kind.Fields, value, keys, keys.length, keys.length, marker, fields, 'value');
}

/** An Error: its name, message, stack, cause and own fields inside an `error` marker. */
function errorFieldsView(
  value: object,
  maxArrayLength: number,
  isRedactedKey: (key: string) => boolean,
): ContainerView {
  const view = errorView(value, maxArrayLength, isRedactedKey);
  const keys = walkedKeys(view);
  const marker: Marker = { [MARKER_KEY]: 'error' };
  return new ContainerView(Kind.Fields, view, keys, keys.length, keys.length, marker, marker, null);
}

/** A Map or Set: its first `maxArrayLength` entries (pairs) or values inside a `map` or `set` marker with its size. */
function collectionView(value: object, isMap: boolean, maxArrayLength: number): ContainerView {
  const { size, items } = isMap ? mapEntriesOf(value, maxArrayLength) : setValuesOf(value, maxArrayLength);
  const list: unknown[] = [];
  const marker: Marker = isMap
    ? { [MARKER_KEY]: 'map', size, entries: list }
    : { [MARKER_KEY]: 'set', size, values: list };
  const kind = isMap ? Kind.MapEntries : Kind.Items;
  return new ContainerView(kind, items, null, items.length, size, marker, list, isMap ? 'entries' : 'values');
}
