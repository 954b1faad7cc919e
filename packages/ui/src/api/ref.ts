import type { Ref } from '@weft/protocol';

// Same patterns as @weft/protocol's refs/names.ts. Re-declared because that
// module builds zod schemas at load time, which would put zod in the bundle;
// ref.test.ts checks this parser against the protocol's on the same inputs.
const PROJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const OBJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,255}$/;
const DIGEST = /^[A-Za-z0-9_-]{43}$/;
const CALL_ID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const SCHEME = 'weft:///';

export type { Ref };

/** Parses a `weft:///` URI, or returns undefined when it is not a well-formed ref. */
export function parseRef(text: string): Ref | undefined {
  if (!text.startsWith(SCHEME)) return undefined;
  const [project, kind, head, ...rest] = text.slice(SCHEME.length).split('/');
  if (project === undefined || !PROJECT_NAME.test(project) || head === undefined) return undefined;
  const path: string[] = [];
  for (const segment of rest) {
    if (segment === '') return undefined;
    try {
      path.push(decodeURIComponent(segment));
    } catch {
      return undefined;
    }
  }
  switch (kind) {
    case 'object':
    case 'op': {
      const colon = head.lastIndexOf(':');
      if (colon < 0) return undefined;
      const name = head.slice(0, colon);
      const digest = head.slice(colon + 1);
      return OBJECT_NAME.test(name) && DIGEST.test(digest)
        ? { kind, project, name, digest, path }
        : undefined;
    }
    case 'table':
    case 'file':
      return DIGEST.test(head) ? { kind, project, digest: head, path } : undefined;
    case 'call':
      return CALL_ID.test(head) ? { kind, project, id: head, path } : undefined;
    default:
      return undefined;
  }
}

/** True when `value` is a string that parses as a ref. */
export function isRefUri(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(SCHEME) && parseRef(value) !== undefined;
}
