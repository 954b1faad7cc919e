import type { Message, Part } from './message.js';
import { partsOf } from './parts.js';
import { isRecord, parseJsonText, str } from './values.js';

/** Whether a value reads as a message: an object with a string `role` (or a Responses item). */
export function isMessageLike(value: unknown): boolean {
  return isRecord(value) && (typeof value.role === 'string' || typeof value.type === 'string');
}

/** OpenAI chat and OpenInference tool calls on an assistant message. */
function toolCallsOf(value: unknown): Part[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((call): Part[] => {
    if (!isRecord(call)) return [];
    const inner = isRecord(call.tool_call) ? call.tool_call : call;
    const fn = isRecord(inner.function) ? inner.function : inner;
    return [
      {
        kind: 'tool-call',
        id: str(inner.id),
        name: str(fn.name) ?? '?',
        arguments: parseJsonText(fn.arguments ?? fn.args),
      },
    ];
  });
}

/** A tool's result given as one JSON text (what OpenAI tool messages carry) becomes its value. */
function jsonText(parts: Part[]): Part[] {
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only?.kind !== 'text') return parts;
  const value = parseJsonText(only.text);
  return typeof value === 'string' ? parts : [{ kind: 'data', value }];
}

/**
 * One message in any convention: its role, its content as parts (`content`,
 * GenAI `parts`, OpenInference `contents`), and the pieces some formats keep
 * beside the content: OpenAI chat `tool_calls`, `refusal`, `audio`, and a
 * `tool` message's `tool_call_id` (its content becomes that call's result).
 * A Responses input item (`function_call`, `function_call_output`,
 * `reasoning`) becomes the message it stands for.
 */
export function readMessage(value: unknown): Message {
  if (!isRecord(value)) return { role: 'user', parts: partsOf(value) };
  const type = str(value.type);
  if (typeof value.role !== 'string' && type !== undefined && type !== 'message') {
    const parts = partsOf(value);
    const role = type === 'function_call_output' ? 'tool' : 'assistant';
    return { role, parts };
  }
  const role = str(value.role) ?? 'user';
  let parts = partsOf(value.content ?? value.parts ?? value.contents);
  // `toolCallId` / `toolCalls`: prompts the playground saved.
  const toolCallId = str(value.tool_call_id) ?? str(value.toolCallId);
  if (
    (role === 'tool' || role === 'function') &&
    toolCallId !== undefined &&
    !parts.some((p) => p.kind === 'tool-result')
  ) {
    parts = [{ kind: 'tool-result', id: toolCallId, name: str(value.name), content: jsonText(parts) }];
  }
  if (typeof value.refusal === 'string' && value.refusal !== '')
    parts.push({ kind: 'refusal', text: value.refusal });
  if (isRecord(value.audio)) parts.push({ kind: 'audio', transcript: str(value.audio.transcript) });
  parts.push(...toolCallsOf(value.tool_calls ?? value.toolCalls));
  // GenAI and OpenInference sometimes carry the function call alone.
  if (isRecord(value.function_call)) parts.push(...toolCallsOf([value.function_call]));
  const name = role === 'tool' ? undefined : str(value.name);
  return { role, ...(name === undefined ? {} : { name }), parts };
}

/** A list of messages, or undefined when `value` is not one (not an array, or an item without a role or type). */
export function readMessages(value: unknown): Message[] | undefined {
  if (!Array.isArray(value) || value.length === 0 || !value.every(isMessageLike)) return undefined;
  return value.map(readMessage);
}
