import { outputMessages } from './conversation.js';
import type { Message, MessageCall } from './message.js';
import { partsOf } from './parts.js';
import { readMessage, readMessages } from './read-message.js';
import { isRecord } from './values.js';

/** Where a turn's history was found: an input of its own, or inside a request object. */
interface History {
  messages: Message[];
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
    const messages = readMessages(value);
    if (messages !== undefined) return { messages, key, nested: false };
  }
  for (const [key, value] of Object.entries(inputs)) {
    if (!isRecord(value)) continue;
    for (const field of ['messages', 'input', 'history', 'contents']) {
      const messages = readMessages(value[field]);
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
function newMessageIn(inputs: Record<string, unknown>, history: History): Message | undefined {
  if (history.nested || Object.hasOwn(inputs, 'model')) return undefined;
  for (const [key, value] of Object.entries(inputs)) {
    if (key === history.key) continue;
    if (typeof value === 'string') return { role: 'user', parts: partsOf(value) };
    if (isMessage(value)) return readMessage(value);
  }
  return undefined;
}

/** A single message given as an argument; a role is required: a lone part (`{ type: 'text', text }`) is not one. */
function isMessage(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && typeof value.role === 'string';
}

/**
 * The user's message of a turn without any history (or with an empty one):
 * the first input that is text, a message, or content parts holding text;
 * or else the inputs themselves, shown as a value.
 */
function askedIn(inputs: Record<string, unknown>): Message | undefined {
  for (const value of Object.values(inputs)) {
    if (isMessage(value)) return readMessage(value);
    if (typeof value !== 'string' && typeof value !== 'object') continue;
    const parts = partsOf(value);
    if (parts.some((p) => p.kind === 'text')) return { role: 'user', parts };
  }
  return Object.keys(inputs).length > 0
    ? { role: 'user', parts: [{ kind: 'data', value: inputs }] }
    : undefined;
}

/** Where a handler's own return value (`{ answer }`, `{ output }`) keeps its text. */
const REPLY_TEXT_KEYS = ['content', 'text', 'message', 'answer', 'output'];

/**
 * A turn's reply: the model's reply in any shape the message model reads
 * (text, a chat completion, a Responses or Anthropic message, the AI SDK's
 * `{ text, toolCalls }`), else the text a handler's own object keeps under
 * one of {@link REPLY_TEXT_KEYS}, else the output as a value.
 */
function replyOf(output: unknown): Message[] {
  const messages = outputMessages(output);
  if (messages.length > 0) return messages;
  if (isRecord(output)) {
    for (const key of REPLY_TEXT_KEYS) {
      if (typeof output[key] === 'string') return [{ role: 'assistant', parts: partsOf(output[key]) }];
    }
  }
  return output === undefined || output === null
    ? []
    : [{ role: 'assistant', parts: [{ kind: 'data', value: output }] }];
}

/**
 * A turn (a session's root call) as messages: the user's new message of
 * this turn, then its output as the reply (or its error, as a message of
 * role `error`). The new message is the one given apart from the history
 * when there is one (`chat(message, history)`: the history holds the
 * earlier turns only); otherwise the history's last user message
 * (`chat(messages)` and request objects carry the whole conversation, the
 * new message last); otherwise the first input that holds text.
 */
export function turnMessages(call: MessageCall): Message[] {
  const out: Message[] = [];
  const inputs = isRecord(call.inputs) ? call.inputs : {};
  const history = historyIn(inputs);
  const given = history === undefined ? undefined : newMessageIn(inputs, history);
  const asked =
    history === undefined ? askedIn(inputs) : (given ?? history.messages.findLast((m) => m.role === 'user'));
  if (asked !== undefined) out.push(asked);
  if (call.exception) {
    out.push({
      role: 'error',
      parts: [{ kind: 'text', text: `${call.exception.name}: ${call.exception.message}` }],
    });
  } else if (call.endedAt !== null) out.push(...replyOf(call.output));
  return out;
}
