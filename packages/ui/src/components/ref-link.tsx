import { type Ref, tryParseRef } from '../api/index.js';
import { href } from '../router/index.js';

/** Where in the UI a ref points: an object version, a table's rows, a call, or a file's bytes. */
export function refHref(ref: Ref): string {
  switch (ref.kind) {
    case 'object':
    case 'op':
      return href(ref.project, ['objects', ref.name], { v: ref.digest });
    case 'table':
      return href(ref.project, ['tables', ref.digest]);
    case 'call':
      return href(ref.project, ['calls', ref.id]);
    case 'file':
      // The bytes themselves, from the public read API.
      return `/v1/files/${encodeURIComponent(ref.project)}/${ref.digest}`;
  }
}

function label(ref: Ref): string {
  const path = ref.path.length > 0 ? `/${ref.path.join('/')}` : '';
  switch (ref.kind) {
    case 'object':
    case 'op':
      return `${ref.kind} ${ref.name}:${ref.digest.slice(0, 8)}${path}`;
    case 'table':
      return `table ${ref.digest.slice(0, 8)}${path}`;
    case 'call':
      return `call ${ref.id.slice(0, 8)}${path}`;
    case 'file':
      return `file ${ref.digest.slice(0, 8)}${path}`;
  }
}

/** A `weft:///` ref rendered as a link to what it names; the full URI is the tooltip. */
export function RefLink({ uri }: { uri: string }) {
  const ref = tryParseRef(uri);
  if (ref === undefined) return <span class="json-string">{JSON.stringify(uri)}</span>;
  return (
    <a class="ref-link" href={refHref(ref)} title={uri} data-ref={uri}>
      {label(ref)}
    </a>
  );
}
