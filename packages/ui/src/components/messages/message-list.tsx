import { useState } from 'preact/hooks';
import type { Message } from '../../model/index.js';
import { PartView } from './part-view.js';

/** Past this many messages, the middle of a conversation is folded. */
const FOLD_AFTER = 60;
const SHOW_FIRST = 10;
const SHOW_LAST = 40;

const ROLE_LABEL: Record<string, string> = {
  system: 'System',
  developer: 'Developer',
  user: 'User',
  assistant: 'Assistant',
  tool: 'Tool',
  function: 'Function',
  error: 'Error',
};

/** Tool call ids to tool names, so a result shows which tool it answers. */
export function toolNamesOf(messages: readonly Message[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.kind === 'tool-call' && part.id !== undefined) names.set(part.id, part.name);
    }
  }
  return names;
}

function MessageView({
  message,
  toolNames,
  output,
}: {
  message: Message;
  toolNames: ReadonlyMap<string, string>;
  output: boolean;
}) {
  return (
    <li class={`message role-${message.role}${output ? ' message-output' : ''}`} data-role={message.role}>
      <div class="message-role">
        {ROLE_LABEL[message.role] ?? message.role}
        {message.name && <span class="muted"> · {message.name}</span>}
        {output && <span class="muted"> · output</span>}
      </div>
      <div class="message-body">
        {message.parts.length === 0 ? (
          <span class="muted">(empty)</span>
        ) : (
          message.parts.map((part, i) => <PartView key={i} part={part} toolNames={toolNames} />)
        )}
      </div>
    </li>
  );
}

/**
 * Messages as role-styled turns. A long conversation (a 200-turn agent)
 * shows its first {@link SHOW_FIRST} and last {@link SHOW_LAST} messages,
 * with the middle one click away, so it opens at once.
 */
export function MessageList({
  messages,
  toolNames = toolNamesOf(messages),
  output = false,
  label,
}: {
  messages: readonly Message[];
  /** Tool names by call id; by default, the calls in `messages`. */
  toolNames?: ReadonlyMap<string, string>;
  output?: boolean;
  label: string;
}) {
  const [unfolded, setUnfolded] = useState(false);
  const fold = !unfolded && messages.length > FOLD_AFTER;
  const head = fold ? messages.slice(0, SHOW_FIRST) : messages;
  const tail = fold ? messages.slice(messages.length - SHOW_LAST) : [];
  const hidden = messages.length - head.length - tail.length;
  return (
    <ol class="messages" aria-label={label}>
      {head.map((m, i) => (
        <MessageView key={i} message={m} toolNames={toolNames} output={output} />
      ))}
      {fold && (
        <li class="messages-fold">
          <button type="button" class="button small" onClick={() => setUnfolded(true)}>
            Show {hidden} more messages
          </button>
        </li>
      )}
      {tail.map((m, i) => (
        <MessageView
          key={messages.length - SHOW_LAST + i}
          message={m}
          toolNames={toolNames}
          output={output}
        />
      ))}
    </ol>
  );
}
