import { errorName } from './error-name.js';
import { REDACTED } from './redact.js';
import { SnapshotMarker } from './snapshot-marker.js';

const OWN_MEMBERS = new Set(['name', 'message', 'stack', 'cause', 'errors']);

/**
 * The members of an Error to walk, as a null-prototype object: `name`,
 * `message`, `stack`, `cause` (when present, so a chain of causes is walked
 * like any nested value), `errors` (AggregateError) and `props` (the other own
 * enumerable string-keyed properties, such as `code` or `status`). Each member
 * is read once; one that throws becomes an `unreadable` stand-in and the rest
 * are kept. At most `maxProps` extra properties are read, and none whose key
 * `isRedactedKey` matches (its getter must not run; the walk redacts it).
 */
export function errorView(
  error: object,
  maxProps: number,
  isRedactedKey: (key: string) => boolean,
): Record<string, unknown> {
  const view: Record<string, unknown> = Object.create(null);
  const source = error as Record<string, unknown>;
  // The class the caller would `instanceof` when `name` is a built-in's it inherited (see errorName).
  view.name = errorName(error);
  for (const member of ['message', 'stack'] as const) view[member] = read(source, member);
  try {
    if ('cause' in error) view.cause = read(source, 'cause');
  } catch (thrown) {
    view.cause = SnapshotMarker.unreadable(thrown);
  }
  if (error instanceof AggregateError) view.errors = read(source, 'errors');
  let keys: string[];
  try {
    keys = Object.keys(error);
  } catch (thrown) {
    view.props = SnapshotMarker.unreadable(thrown);
    return view;
  }
  let props: Record<string, unknown> | undefined;
  let taken = 0;
  for (const key of keys) {
    if (OWN_MEMBERS.has(key)) continue;
    if (taken++ >= maxProps) break;
    props ??= Object.create(null) as Record<string, unknown>;
    props[key] = isRedactedKey(key) ? REDACTED : read(source, key);
  }
  if (props !== undefined) view.props = props;
  return view;
}

function read(source: Record<string, unknown>, key: string): unknown {
  try {
    return source[key];
  } catch (thrown) {
    return SnapshotMarker.unreadable(thrown);
  }
}
