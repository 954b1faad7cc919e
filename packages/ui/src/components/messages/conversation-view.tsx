import type { Conversation } from '../../model/index.js';
import { MessageList, toolNamesOf } from './message-list.js';

/** A model call as the conversation it was: the messages sent, the tools offered, the reply. */
export function ConversationView({
  conversation,
  running,
}: {
  conversation: Conversation;
  running: boolean;
}) {
  const toolNames = toolNamesOf([...conversation.input, ...conversation.output]);
  return (
    <div class="conversation" data-format={conversation.format}>
      <MessageList messages={conversation.input} toolNames={toolNames} label="Messages sent" />
      {conversation.tools.length > 0 && (
        <details class="tools-offered">
          <summary>
            {conversation.tools.length} tool{conversation.tools.length === 1 ? '' : 's'} offered:{' '}
            {conversation.tools.map((t) => t.name).join(', ')}
          </summary>
          <ul>
            {conversation.tools.map((t) => (
              <li key={t.name}>
                <strong>{t.name}</strong>
                {t.description && <span class="muted"> — {t.description}</span>}
              </li>
            ))}
          </ul>
        </details>
      )}
      {conversation.output.length > 0 ? (
        <MessageList messages={conversation.output} toolNames={toolNames} output label="Reply" />
      ) : running ? (
        <p class="muted">Waiting for the reply…</p>
      ) : null}
    </div>
  );
}
