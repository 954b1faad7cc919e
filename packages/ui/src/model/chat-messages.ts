import type { Call } from '../api/index.js';

/** One message of a conversation as the sessions view shows it. */
export interface ChatMessage {
  role: string;
  text: string;
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    // Content parts ({ type: 'text', text }) as the chat APIs send them.
    const parts = value
      .map((p) => textOf((p as { text?: unknown })?.text ?? p))
      .filter((t) => t !== undefined);
    return parts.length > 0 ? parts.join('\n') : undefined;
  }
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    for (const key of ['content', 'text', 'message', 'answer', 'output']) {
      const t = textOf(v[key]);
      if (t !== undefined) return t;
    }
    const choice = (v.choices as unknown[] | undefined)?.[0] as { message?: unknown } | undefined;
    if (choice) return textOf(choice.message);
  }
  return undefined;
}

function messagesIn(value: unknown): ChatMessage[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const messages: ChatMessage[] = [];
  for (const m of value) {
    if (!m || typeof m !== 'object' || typeof (m as { role?: unknown }).role !== 'string') return undefined;
    messages.push({
      role: (m as { role: string }).role,
      text: textOf((m as { content?: unknown }).content) ?? '',
    });
  }
  return messages;
}

/**
 * A turn (a session's root call) as chat messages: the new messages of its
 * inputs — a `messages` array's last user message (earlier ones were shown
 * in earlier turns), else the first text input as the user — then its output
 * as the assistant's reply.
 */
export function turnMessages(call: Call): ChatMessage[] {
  const out: ChatMessage[] = [];
  const inputs = call.inputs as Record<string, unknown>;
  const history = Object.values(inputs)
    .map(messagesIn)
    .find((m) => m !== undefined);
  if (history !== undefined) {
    const lastUser = [...history].reverse().find((m) => m.role === 'user');
    if (lastUser) out.push(lastUser);
  } else {
    const text = Object.values(inputs)
      .map(textOf)
      .find((t) => t !== undefined);
    if (text !== undefined) out.push({ role: 'user', text });
  }
  if (call.exception) out.push({ role: 'error', text: `${call.exception.name}: ${call.exception.message}` });
  else if (call.endedAt !== null)
    out.push({ role: 'assistant', text: textOf(call.output) ?? JSON.stringify(call.output) });
  return out;
}
