import { useState } from 'preact/hooks';
import { isRefUri } from '../api/index.js';
import { RefLink } from './ref-link.js';

/** Strings longer than this are folded behind a "show all" button. */
const FOLD_CHARS = 200;
/** Containers with more members show this many until asked for more. */
const PAGE_MEMBERS = 100;

/**
 * A collapsible view of a JSON-like value: containers open to `openDepth`,
 * long strings folded, `weft:///` refs as links to what they name.
 */
export function JsonViewer({
  value,
  openDepth = 2,
  label,
}: {
  value: unknown;
  openDepth?: number;
  label?: string;
}) {
  return (
    <section class="json-viewer" aria-label={label}>
      <JsonNode value={value} depth={0} openDepth={openDepth} name={undefined} />
    </section>
  );
}

function JsonNode({
  name,
  value,
  depth,
  openDepth,
}: {
  name: string | undefined;
  value: unknown;
  depth: number;
  openDepth: number;
}) {
  const key = name === undefined ? null : <span class="json-key">{name}: </span>;
  if (value !== null && typeof value === 'object') {
    return <JsonContainer name={name} value={value as object} depth={depth} openDepth={openDepth} />;
  }
  return (
    <div class="json-line">
      {key}
      <JsonLeaf value={value} />
    </div>
  );
}

function JsonLeaf({ value }: { value: unknown }) {
  if (typeof value === 'string') {
    if (isRefUri(value)) return <RefLink uri={value} />;
    return <JsonString value={value} />;
  }
  if (value === null || value === undefined) return <span class="json-null">null</span>;
  if (typeof value === 'number') return <span class="json-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span class="json-boolean">{String(value)}</span>;
  return <span class="json-other">{String(value)}</span>;
}

function JsonString({ value }: { value: string }) {
  const [open, setOpen] = useState(false);
  if (open && value.includes('\n')) {
    // Unfolded multi-line text (prompts, source, documents) reads better raw than escaped.
    return (
      <span class="json-string">
        <button type="button" class="link-button" onClick={() => setOpen(false)}>
          fold
        </button>
        <pre class="json-pre">{value}</pre>
      </span>
    );
  }
  if (value.length <= FOLD_CHARS || open) {
    return (
      <span class="json-string">
        {JSON.stringify(value)}
        {open && (
          <button type="button" class="link-button" onClick={() => setOpen(false)}>
            fold
          </button>
        )}
      </span>
    );
  }
  return (
    <span class="json-string">
      {JSON.stringify(value.slice(0, FOLD_CHARS)).slice(0, -1)}…"
      <button type="button" class="link-button" onClick={() => setOpen(true)}>
        show all {value.length.toLocaleString('en-US')} chars
      </button>
    </span>
  );
}

function JsonContainer({
  name,
  value,
  depth,
  openDepth,
}: {
  name: string | undefined;
  value: object;
  depth: number;
  openDepth: number;
}) {
  const [open, setOpen] = useState(depth < openDepth);
  const [shown, setShown] = useState(PAGE_MEMBERS);
  const isArray = Array.isArray(value);
  const entries: [string, unknown][] = isArray
    ? (value as unknown[]).map((v, i) => [String(i), v])
    : Object.entries(value as Record<string, unknown>);
  const [openBracket, closeBracket] = isArray ? ['[', ']'] : ['{', '}'];
  const count = isArray ? `${entries.length} items` : `${entries.length} keys`;
  return (
    <div class="json-container">
      <button type="button" class="json-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span class="caret" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        {name !== undefined && <span class="json-key">{name}: </span>}
        <span class="json-punct">{openBracket}</span>
        {!open && (
          <span class="json-summary">
            {' '}
            {count} {closeBracket}
          </span>
        )}
      </button>
      {open && (
        <div class="json-children">
          {entries.slice(0, shown).map(([k, v]) => (
            <JsonNode key={k} name={k} value={v} depth={depth + 1} openDepth={openDepth} />
          ))}
          {entries.length > shown && (
            <button type="button" class="link-button" onClick={() => setShown(shown + PAGE_MEMBERS)}>
              show {Math.min(PAGE_MEMBERS, entries.length - shown)} more of {entries.length - shown}
            </button>
          )}
        </div>
      )}
      {open && <span class="json-punct">{closeBracket}</span>}
    </div>
  );
}
