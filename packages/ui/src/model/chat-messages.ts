import type { Call } from '../api/index.js';

/** One message of a conversation as the sessions view shows it. */
export interface ChatMessage {
  role: string;
  text: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
  if (isRecord(value)) {
    for (const key of ['content', 'text', 'message', 'answer', 'output']) {
      const t = textOf(value[key]);
      if (t !== undefined) return t;
    }
    const choice = (value.choices as unknown[] | undefined)?.[0] as { message?: unknown } | undefined;
    if (choice) return textOf(choice.message);
  }
  return undefined;
}

function isMessage(value: unknown): value is { role: string; content?: unknown } {
  return isRecord(value) && typeof value.role === 'string';
}

function messagesIn(value: unknown): ChatMessage[] | undefined {
  if (!Array.isArray(value) || value.length === 0 || !value.every(isMessage)) return undefined;
  return value.map((m) => ({ role: m.role, text: textOf(m.content) ?? '' }));
}

/** Where a turn's history was found: an input of its own, or inside a request object. */
interface History {
  messages: ChatMessage[];
  /** The input holding it. */
  key: string;
  /** Inside a request object (`{ model, messages }`), which carries the whole conversation. */
  nested: boolean;
}

/**
 * The history a turn's inputs carry: an array of messages given as an
 * input (`chat(messages)`, `chat(message, history)`), or inside a request
 * object one level down (an OpenAI or Anthropic request given as
 * `chat(request)`, a Responses `input`).
 */
function historyIn(inputs: Record<string, unknown>): History | undefined {
  for (const [key, value] of Object.entries(inputs)) {
    const messages = messagesIn(value);
    if (messages !== undefined) return { messages, key, nested: false };
  }
  for (const [key, value] of Object.entries(inputs)) {
    if (!isRecord(value)) continue;
    for (const field of ['messages', 'input', 'history', 'contents']) {
      const messages = messagesIn(value[field]);
      if (messages !== undefined) return { messages, key, nested: true };
    }
  }
  return undefined;
}

/**
 * The turn's own new message, given apart from the history: a text or a
 * single message argument (`chat(message, history)` — the standard chat
 * handler — or `chat(history, message)`). A request recorded as the inputs
 * themselves (`chat({ model, messages })`) has none: its strings are
 * parameters (`model`, `system`), and its messages end with the new one.
 */
function newMessageIn(inputs: Record<string, unknown>, history: History): ChatMessage | undefined {
  if (history.nested || Object.hasOwn(inputs, 'model')) return undefined;
  for (const [key, value] of Object.entries(inputs)) {
    if (key === history.key) continue;
    if (typeof value === 'string') return { role: 'user', text: value };
    if (isMessage(value)) return { role: value.role, text: textOf(value.content) ?? '' };
  }
  return undefined;
}

/**
 * A turn (a session's root call) as chat messages: the user's new message
 * of this turn, then its output as the assistant's reply (or its error).
 * The new message is the one given apart from the history when there is one
 * (`chat(message, history)`: the history holds the earlier turns only);
 * otherwise the history's last user message (`chat(messages)` and request
 * objects carry the whole conversation, the new message last); otherwise
 * the first text found in the inputs.
 */
export function turnMessages(call: Call): ChatMessage[] {
  const out: ChatMessage[] = [];
  const inputs = isRecord(call.inputs) ? call.inputs : {};
  const history = historyIn(inputs);
  const given = history === undefined ? undefined : newMessageIn(inputs, history);
  if (given !== undefined) out.push(given);
  else if (history !== undefined) {
    const lastUser = [...history.messages].reverse().find((m) => m.role === 'user');
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
