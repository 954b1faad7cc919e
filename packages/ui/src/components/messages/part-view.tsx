import type { Part } from '../../model/index.js';
import { JsonViewer } from '../json-viewer.js';
import { LongText } from './long-text.js';
import { ToolCallCard } from './tool-call-card.js';

/**
 * One part of a message. Images recorded inline (`data:` URLs) are shown;
 * an image at a web address is a link, not loaded: the trace viewer never
 * fetches from hosts a traced prompt names.
 */
export function PartView({ part, toolNames }: { part: Part; toolNames: ReadonlyMap<string, string> }) {
  switch (part.kind) {
    case 'text':
      return <LongText text={part.text} />;
    case 'refusal':
      return (
        <div class="part-refusal">
          <strong>Refused:</strong> {part.text}
        </div>
      );
    case 'thinking':
      return part.redacted ? (
        <div class="part-thinking muted">Thinking (redacted by the provider)</div>
      ) : (
        <details class="part-thinking">
          <summary>Thinking</summary>
          <LongText text={part.text} />
        </details>
      );
    case 'image':
      return part.url?.startsWith('data:image/') ? (
        <img class="part-image" src={part.url} alt="Sent with the message (inline)" />
      ) : (
        <div class="part-file">
          Image {/* Only web addresses become links: a recorded `javascript:` URL must never run. */}
          {part.url && /^https?:\/\//i.test(part.url) ? (
            <a href={part.url} rel="noreferrer noopener" target="_blank">
              {part.url.length > 80 ? `${part.url.slice(0, 80)}…` : part.url}
            </a>
          ) : (
            <span class="muted">{part.url ? '(inline data)' : '(no address recorded)'}</span>
          )}
        </div>
      );
    case 'audio':
      return (
        <div class="part-file">
          Audio{part.format ? ` (${part.format})` : ''}
          {part.transcript && <LongText text={part.transcript} />}
        </div>
      );
    case 'file':
      return (
        <div class="part-file">
          File {part.name ?? ''}
          {part.mediaType ? ` (${part.mediaType})` : ''}
        </div>
      );
    case 'tool-call':
      return <ToolCallCard part={part} />;
    case 'tool-result': {
      const name = part.name ?? (part.id === undefined ? undefined : toolNames.get(part.id));
      return (
        <div class={`tool-card tool-result${part.isError ? ' tool-error' : ''}`} data-tool={name}>
          <div class="tool-card-head">
            <strong>{part.isError ? 'Error from' : 'Result of'}</strong>{' '}
            <span class="tool-name">{name ?? 'a tool call'}</span>
            {part.id && <code class="muted tool-id">{part.id}</code>}
          </div>
          {part.content.map((p, i) => (
            <PartView key={i} part={p} toolNames={toolNames} />
          ))}
        </div>
      );
    }
    case 'data':
      return <JsonViewer value={part.value} openDepth={2} />;
  }
}
