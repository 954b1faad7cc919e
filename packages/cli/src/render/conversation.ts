import type { Call } from '@weft/protocol';
import { type Part, turnMessages as readTurn } from '@weft/protocol/messages';

/** One message of a conversation as the CLI and `weft mcp` print it. */
export interface ChatMessage {
  role: string;
  text: string;
}

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The text of message content: a string, or content parts (`{ type: 'text',
 * text }`, tool calls and tool results as the chat APIs send them).
 */
export function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content.map(partText).filter((t): t is string => t !== undefined);
  return parts.length > 0 ? parts.join('\n') : undefined;
}

function partText(part: unknown): string | undefined {
  if (typeof part === 'string') return part;
  if (!isRecord(part)) return undefined;
  if (typeof part.text === 'string') return part.text;
  if (part.type === 'tool_use')
    return `[tool call ${String(part.name)}(${JSON.stringify(part.input ?? {})})]`;
  if (part.type === 'tool_result') return `[tool result] ${contentText(part.content) ?? ''}`.trimEnd();
  if (part.type === 'image' || part.type === 'image_url' || part.type === 'input_image') return '[image]';
  return undefined;
}

/** A chat message (`{ role, content, tool_calls? }`), or undefined when `m` is not one. */
function messageOf(m: unknown): ChatMessage | undefined {
  if (!isRecord(m) || typeof m.role !== 'string') return undefined;
  const texts = [contentText(m.content)];
  if (Array.isArray(m.tool_calls)) {
    for (const call of m.tool_calls) {
      const fn = isRecord(call) && isRecord(call.function) ? call.function : undefined;
      if (fn) texts.push(`[tool call ${String(fn.name)}(${String(fn.arguments ?? '')})]`);
    }
  }
  return { role: m.role, text: texts.filter((t) => t !== undefined && t !== '').join('\n') };
}

function messagesOf(value: unknown): ChatMessage[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const messages = value.map(messageOf);
  return messages.every((m) => m !== undefined) ? (messages as ChatMessage[]) : undefined;
}

/** The assistant's reply in an LLM call's output (OpenAI chat or Responses, Anthropic messages, AI SDK text), if it has one. */
export function replyOf(output: unknown): ChatMessage | undefined {
  if (typeof output === 'string') return { role: 'assistant', text: output };
  if (!isRecord(output)) return undefined;
  const choice = Array.isArray(output.choices) ? output.choices[0] : undefined;
  if (isRecord(choice)) return messageOf(choice.message) ?? undefined;
  if (output.role === 'assistant') return messageOf(output);
  if (typeof output.output_text === 'string') return { role: 'assistant', text: output.output_text };
  if (typeof output.text === 'string') return { role: 'assistant', text: output.text };
  return undefined;
}

/**
 * An LLM call as a conversation: its input messages (a `messages` array,
 * Anthropic's `system`, the Responses API's `input`), then the reply. Undefined
 * when the call's inputs hold no messages.
 */
export function llmConversation(call: Call): ChatMessage[] | undefined {
  const inputs = call.inputs;
  const history =
    messagesOf(inputs.messages) ??
    messagesOf(inputs.input) ??
    (typeof inputs.prompt === 'string' ? [{ role: 'user', text: inputs.prompt }] : undefined);
  if (history === undefined) return undefined;
  const system = typeof inputs.system === 'string' ? inputs.system : contentText(inputs.system);
  const out = system === undefined ? [...history] : [{ role: 'system', text: system }, ...history];
  const reply = replyOf(call.output);
  if (reply) out.push(reply);
  else if (call.exception)
    out.push({ role: 'error', text: `${call.exception.name}: ${call.exception.message}` });
  return out;
}

/** A part as the text the CLI and `weft mcp` print for it; `undefined` for a model's reasoning, which is not said. */
function messagePartText(part: Part): string | undefined {
  switch (part.kind) {
    case 'text':
    case 'refusal':
      return part.text;
    case 'thinking':
      return undefined;
    case 'image':
      return '[image]';
    case 'audio':
      return part.transcript ?? '[audio]';
    case 'file':
      return part.name === undefined ? '[file]' : `[file ${part.name}]`;
    case 'tool-call':
      return `[tool call ${part.name}(${JSON.stringify(part.arguments ?? {})})]`;
    case 'tool-result':
      return `[tool result] ${partsText(part.content)}`.trimEnd();
    case 'data':
      return JSON.stringify(part.value) ?? '';
  }
}

function partsText(parts: readonly Part[]): string {
  return parts
    .map(messagePartText)
    .filter((t) => t !== undefined && t !== '')
    .join('\n');
}

/**
 * A session's turn (a root call) as chat messages: the user's new message,
 * then the reply or the error, as `@weft/protocol/messages` reads them (the
 * web UI's sessions view shows the same), each as text.
 */
export function turnMessages(call: Call): ChatMessage[] {
  return readTurn(call).map((message) => ({ role: message.role, text: partsText(message.parts) }));
}
