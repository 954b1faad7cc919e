/**
 * A location inside the UI, kept in the URL hash (`#/<project>/<view>/…?k=v`)
 * so every view is a link that can be shared, reloaded or opened in a new tab,
 * and the server needs no routing of its own beyond `/`.
 */
export interface Route {
  project: string | undefined;
  /** Path segments after the project, decoded. */
  segments: string[];
  query: URLSearchParams;
}

/** Parses a hash such as `#/demo/trace/<id>?call=<id>`. */
export function parseRoute(hash: string): Route {
  const text = hash.replace(/^#\/?/, '');
  const q = text.indexOf('?');
  const path = q < 0 ? text : text.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : text.slice(q + 1));
  const parts = path
    .split('/')
    .filter((p) => p !== '')
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
  const [project, ...segments] = parts;
  return { project, segments, query };
}

/** A query parameter's value; a list repeats the parameter (`?attrs=a%3D1&attrs=b%3D2`). */
export type QueryValue = string | number | readonly string[] | undefined;

/** Builds a hash link; `query` members that are undefined or '' (or lists of none) are left out. */
export function href(
  project: string,
  segments: readonly string[],
  query: Record<string, QueryValue> = {},
): string {
  const path = [project, ...segments].map(encodeURIComponent).join('/');
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const item of value) params.append(key, item);
    else if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return `#/${path}${search ? `?${search}` : ''}`;
}

/** Goes to a hash link, replacing the history entry when asked (filter edits). */
export function navigate(link: string, replace = false): void {
  if (replace) history.replaceState(null, '', link);
  else location.hash = link.slice(1);
  if (replace) window.dispatchEvent(new HashChangeEvent('hashchange'));
}
