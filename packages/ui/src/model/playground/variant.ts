import type { PlaygroundMessage, PlaygroundParameters, PlaygroundTool } from '../../api/index.js';
import type { Conversation, Message, Part } from '../../api/index.js';

/** One column of the playground: a prompt, a model and its parameters, run side by side with the others. */
export interface Variant {
  provider: string;
  model: string;
  parameters: PlaygroundParameters;
  messages: PlaygroundMessage[];
  tools: PlaygroundTool[];
}

/** A source read into the playground, and what it could not carry (images, audio, files). */
export interface PlaygroundSource {
  variant: Variant;
  dropped: string[];
}

function textOf(parts: readonly Part[]): string {
  return parts
    .map((p) => {
      if (p.kind === 'text' || p.kind === 'refusal') return p.text;
      if (p.kind === 'data') return typeof p.value === 'string' ? p.value : JSON.stringify(p.value);
      if (p.kind === 'tool-result') return textOf(p.content);
      return '';
    })
    .filter((t) => t !== '')
    .join('\n');
}

function argumentsText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? {});
}

/**
 * The playground's messages for one recorded message: system and developer
 * become system; an assistant's tool calls are kept with their ids; each
 * tool result (an OpenAI tool message, an Anthropic `tool_result` block of a
 * user message) becomes a `tool` message answering its call. Parts with no
 * text form (images, audio, files, thinking) are counted in `dropped`.
 */
function playgroundMessages(message: Message, dropped: string[]): PlaygroundMessage[] {
  const out: PlaygroundMessage[] = [];
  for (const p of message.parts) {
    if (p.kind === 'image' || p.kind === 'audio' || p.kind === 'file') dropped.push(p.kind);
    if (p.kind === 'tool-result') {
      out.push({
        role: 'tool',
        content: textOf(p.content),
        ...(p.id === undefined ? {} : { toolCallId: p.id }),
      });
    }
  }
  const rest = message.parts.filter((p) => p.kind !== 'tool-result');
  const role: PlaygroundMessage['role'] =
    message.role === 'system' || message.role === 'developer'
      ? 'system'
      : message.role === 'assistant'
        ? 'assistant'
        : message.role === 'tool' || message.role === 'function'
          ? 'tool'
          : 'user';
  const toolCalls = rest.flatMap((p, i) =>
    p.kind === 'tool-call'
      ? [{ id: p.id ?? `call_${i}`, name: p.name, arguments: argumentsText(p.arguments) }]
      : [],
  );
  const content = textOf(rest.filter((p) => p.kind !== 'tool-call' && p.kind !== 'thinking'));
  if (content !== '' || toolCalls.length > 0 || out.length === 0) {
    out.push({ role, content, ...(toolCalls.length > 0 ? { toolCalls } : {}) });
  }
  return out;
}

function numberParameter(parameters: Record<string, unknown>, ...keys: string[]): number | undefined {
  for (const key of keys) {
    const value = parameters[key];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return undefined;
}

/** A traced model call as a playground variant: its messages, model, sampling parameters and tools. */
export function variantFromConversation(conversation: Conversation, provider: string): PlaygroundSource {
  const dropped: string[] = [];
  const messages = conversation.input.flatMap((m) => playgroundMessages(m, dropped));
  const p = conversation.parameters;
  const parameters: PlaygroundParameters = {};
  const temperature = numberParameter(p, 'temperature');
  const topP = numberParameter(p, 'top_p', 'topP');
  const maxTokens = numberParameter(
    p,
    'max_tokens',
    'max_completion_tokens',
    'max_output_tokens',
    'maxTokens',
  );
  if (temperature !== undefined) parameters.temperature = temperature;
  if (topP !== undefined) parameters.topP = topP;
  if (maxTokens !== undefined) parameters.maxTokens = maxTokens;
  return {
    variant: {
      provider,
      model: conversation.model ?? '',
      parameters,
      messages,
      tools: conversation.tools.map((t) => ({
        name: t.name,
        ...(t.description === undefined ? {} : { description: t.description }),
        ...(t.parameters && typeof t.parameters === 'object'
          ? { parameters: t.parameters as Record<string, unknown> }
          : {}),
      })),
    },
    dropped,
  };
}

/** Text fields a prompt object may hold its prompt in, when it has no `messages`. */
const PROMPT_TEXT_KEYS = ['messages', 'template', 'prompt', 'text', 'system', 'content'] as const;

/**
 * A prompt object's value as a variant: its `messages` (any provider's
 * shape), or one text field (`template`, `prompt`, `text`, `system`,
 * `content`) as a single user message (a system one for `system`); its
 * `model` and parameters when it names them.
 */
export function variantFromPrompt(
  value: unknown,
  read: (inputs: Record<string, unknown>) => Conversation | undefined,
  provider: string,
): PlaygroundSource | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const key = PROMPT_TEXT_KEYS.find((k) => record[k] !== undefined);
  if (key === undefined) return undefined;
  const inputs: Record<string, unknown> =
    key === 'messages'
      ? record
      : {
          ...record,
          messages: [{ role: key === 'system' ? 'system' : 'user', content: String(record[key]) }],
        };
  const conversation = read(inputs);
  return conversation === undefined ? undefined : variantFromConversation(conversation, provider);
}

/**
 * The value saved as a prompt's new version: the source value with its
 * prompt replaced by the variant's messages (`{ role, content }`, tool calls
 * kept), and its model and parameters when it had them. Other keys are kept
 * as they were, so code reading the prompt finds the same shape.
 */
export function promptValue(source: unknown, variant: Variant): Record<string, unknown> {
  const base =
    typeof source === 'object' && source !== null && !Array.isArray(source)
      ? { ...(source as Record<string, unknown>) }
      : {};
  const key = PROMPT_TEXT_KEYS.find((k) => base[k] !== undefined);
  const single = variant.messages.length === 1 ? variant.messages[0] : undefined;
  if (key !== undefined && key !== 'messages' && single !== undefined && single.toolCalls === undefined) {
    base[key] = single.content;
  } else {
    if (key !== undefined && key !== 'messages') delete base[key];
    base.messages = variant.messages.map((m) => ({
      role: m.role,
      content: m.content,
      ...(m.toolCalls === undefined ? {} : { toolCalls: m.toolCalls }),
      ...(m.toolCallId === undefined ? {} : { toolCallId: m.toolCallId }),
    }));
  }
  if (variant.model !== '') base.model = variant.model;
  for (const [k, v] of Object.entries(variant.parameters)) if (v !== undefined) base[k] = v;
  if (variant.tools.length > 0) base.tools = variant.tools;
  return base;
}
