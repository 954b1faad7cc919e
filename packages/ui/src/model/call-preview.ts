import type { Call } from '../api/index.js';
import { conversationOf, type Message } from '../api/index.js';

/** Characters a table cell's preview keeps. */
const PREVIEW_CHARS = 160;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS)}…` : flat;
}

function messageText(message: Message | undefined): string | undefined {
  if (message === undefined) return undefined;
  const parts = message.parts.flatMap((p) => {
    if (p.kind === 'text' || p.kind === 'refusal') return [p.text];
    if (p.kind === 'tool-call')
      return [
        `→ ${p.name}(${typeof p.arguments === 'string' ? p.arguments : JSON.stringify(p.arguments ?? {})})`,
      ];
    return [];
  });
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value) ?? '';
}

/**
 * What a table shows of a call's inputs and output in one line each: for a
 * model call, the last user message and the reply (tool calls as
 * `→ name(args)`); for any other call, a lone string input or the inputs as
 * compact JSON, and the output likewise.
 */
export function callPreview(call: Call): { input: string; output: string } {
  const conversation = conversationOf(call);
  if (conversation !== undefined) {
    const lastUser = [...conversation.input].reverse().find((m) => m.role === 'user');
    return {
      input: clip(messageText(lastUser) ?? messageText(conversation.input.at(-1)) ?? ''),
      output: clip(
        conversation.output
          .map(messageText)
          .filter((t) => t !== undefined)
          .join(' ') || (call.exception ? `${call.exception.name}: ${call.exception.message}` : ''),
      ),
    };
  }
  const inputs = Object.values(call.inputs ?? {});
  const input =
    inputs.length === 1 && typeof inputs[0] === 'string'
      ? inputs[0]
      : inputs.length === 0
        ? ''
        : valueText(call.inputs);
  const output = call.exception
    ? `${call.exception.name}: ${call.exception.message}`
    : call.endedAt === null
      ? ''
      : valueText(call.output);
  return { input: clip(input), output: clip(output) };
}
