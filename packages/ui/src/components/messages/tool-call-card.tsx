import type { Part } from '../../model/index.js';
import { JsonViewer } from '../json-viewer.js';
import { WrenchIcon } from '../icons.js';
import { LongText } from './long-text.js';

/** A tool call the model made: the tool's name, its id, and its arguments as a value (parsed from JSON text). */
export function ToolCallCard({ part }: { part: Extract<Part, { kind: 'tool-call' }> }) {
  const args = part.arguments;
  return (
    <div class="tool-card tool-call" data-tool={part.name}>
      <div class="tool-card-head">
        <WrenchIcon />
        <strong class="tool-name">{part.name}</strong>
        {part.id && <code class="muted tool-id">{part.id}</code>}
      </div>
      {typeof args === 'string' ? (
        <LongText text={args} class="part-text tool-args" />
      ) : args === undefined ? null : (
        <div class="tool-args">
          <JsonViewer value={args} openDepth={3} label={`Arguments of ${part.name}`} />
        </div>
      )}
    </div>
  );
}
