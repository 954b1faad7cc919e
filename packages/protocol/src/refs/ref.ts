import { InvalidRefError } from '../errors/index.js';
import { CALL_ID, DIGEST, OBJECT_NAME, PROJECT_NAME } from './names.js';

const SCHEME = 'weft:///';

/** A parsed `weft:///` URI naming a stored object, op, table, file or call. */
export type Ref =
  | { kind: 'object' | 'op'; project: string; name: string; digest: string; path: string[] }
  | { kind: 'table'; project: string; digest: string; path: string[] }
  /** Content-addressed bytes (`digestBytes`), stored with `routes.fileCreate`. */
  | { kind: 'file'; project: string; digest: string; path: string[] }
  | { kind: 'call'; project: string; id: string; path: string[] };

/**
 * Formats a ref as `weft:///<project>/<kind>/<name>:<digest>` (objects, ops),
 * `…/table/<digest>`, `…/file/<digest>` or `…/call/<id>`, each path segment URI-encoded after it.
 * Throws {@link InvalidRefError} for a field that could not be parsed back.
 */
export function formatRef(ref: Ref): string {
  const head = (() => {
    switch (ref.kind) {
      case 'object':
      case 'op':
        return `${ref.kind}/${ref.name}:${ref.digest}`;
      case 'table':
      case 'file':
        return `${ref.kind}/${ref.digest}`;
      case 'call':
        return `call/${ref.id}`;
    }
  })();
  const text = `${SCHEME}${ref.project}/${head}${ref.path.map((p) => `/${encodeURIComponent(p)}`).join('')}`;
  parseRef(text);
  return text;
}

/** Parses a `weft:///` URI; throws {@link InvalidRefError} naming what is malformed. */
export function parseRef(text: string): Ref {
  if (typeof text !== 'string') throw new InvalidRefError(String(text), 'not a string');
  if (!text.startsWith(SCHEME)) throw new InvalidRefError(text, `must start with "${SCHEME}"`);
  const parts = text.slice(SCHEME.length).split('/');
  const [project, kind, head, ...rest] = parts;
  if (project === undefined || !PROJECT_NAME.test(project))
    throw new InvalidRefError(text, 'bad project name');
  if (head === undefined) throw new InvalidRefError(text, 'missing kind or identifier');
  const path = rest.map((segment) => {
    if (segment === '') throw new InvalidRefError(text, 'empty path segment');
    try {
      return decodeURIComponent(segment);
    } catch {
      throw new InvalidRefError(text, `path segment "${segment}" is not valid percent-encoding`);
    }
  });
  switch (kind) {
    case 'object':
    case 'op': {
      const colon = head.lastIndexOf(':');
      if (colon < 0) throw new InvalidRefError(text, `${kind} refs need <name>:<digest>`);
      const name = head.slice(0, colon);
      const digest = head.slice(colon + 1);
      if (!OBJECT_NAME.test(name)) throw new InvalidRefError(text, `bad ${kind} name "${name}"`);
      if (!DIGEST.test(digest)) throw new InvalidRefError(text, `bad digest "${digest}"`);
      return { kind, project, name, digest, path };
    }
    case 'table':
      if (!DIGEST.test(head)) throw new InvalidRefError(text, `bad table digest "${head}"`);
      return { kind, project, digest: head, path };
    case 'file':
      if (!DIGEST.test(head)) throw new InvalidRefError(text, `bad file digest "${head}"`);
      return { kind, project, digest: head, path };
    case 'call':
      if (!CALL_ID.test(head)) throw new InvalidRefError(text, `bad call id "${head}"`);
      return { kind, project, id: head, path };
    default:
      throw new InvalidRefError(text, `unknown kind "${kind}" (expected object, op, table, file or call)`);
  }
}

/** Parses a `weft:///` URI, or returns undefined when `value` is not a well-formed ref. Cheap prefix check first. */
export function tryParseRef(value: unknown): Ref | undefined {
  if (typeof value !== 'string' || !value.startsWith(SCHEME)) return undefined;
  try {
    return parseRef(value);
  } catch {
    return undefined;
  }
}

/** True when `value` is a string that parses as a ref. */
export function isRefUri(value: unknown): value is string {
  return tryParseRef(value) !== undefined;
}
