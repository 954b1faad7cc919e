import type { OtelEvent } from './otel-span.js';
import { parseJsonValue, type SpanAttributes } from './span-attributes.js';
import { setOwnKey } from '../values/index.js';

/** Older GenAI conventions: one span event per prompt message, role in the name. */
const ROLE_OF_EVENT: Readonly<Record<string, string>> = {
  'gen_ai.system.message': 'system',
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
};
/** Older GenAI conventions: one span event per completion choice. */
const CHOICE_EVENT = 'gen_ai.choice';
/** Even older: the whole prompt / completion as JSON in one event attribute. */
const PROMPT_EVENT = { name: 'gen_ai.content.prompt', key: 'gen_ai.prompt' } as const;
const COMPLETION_EVENT = { name: 'gen_ai.content.completion', key: 'gen_ai.completion' } as const;

/** The span's events, and the ones whose content went into inputs or output (not repeated in attributes). */
export interface SpanEvents {
  all: readonly OtelEvent[];
  consumed: Set<OtelEvent>;
}

/**
 * A call's inputs from the first convention that has them:
 * 1. chat messages — `gen_ai.input.messages` (+ `gen_ai.system_instructions`),
 *    `gen_ai.prompt.N.*`, OpenInference `llm.input_messages.N.message.*`,
 *    the AI SDK's `ai.prompt.messages`, deprecated `gen_ai.prompt` JSON, or
 *    per-message events — as `{ messages, system? }`;
 * 2. the AI SDK's `ai.prompt` (`{ system?, prompt?, messages? }`);
 * 3. OpenInference `input.value`;
 * 4. a tool call's arguments (`gen_ai.tool.call.arguments`, `ai.toolCall.args`),
 *    or OpenLLMetry's `traceloop.entity.input`.
 * A JSON object becomes the inputs record itself; any other value `{ input }`.
 */
export function inputsOfSpan(attributes: SpanAttributes, events: SpanEvents): Record<string, unknown> {
  const messages = inputMessages(attributes, events);
  const system = attributes.take('gen_ai.system_instructions');
  if (messages !== undefined || system !== undefined) {
    return {
      ...(system === undefined ? {} : { system: system.value }),
      ...(messages === undefined ? {} : { messages }),
    };
  }
  const other = attributes.take(
    'ai.prompt',
    'input.value',
    'gen_ai.tool.call.arguments',
    'ai.toolCall.args',
    'ai.toolCall.input',
    'traceloop.entity.input',
  );
  if (other === undefined) return {};
  return isPlainObject(other.value) ? other.value : { input: other.value };
}

function inputMessages(attributes: SpanAttributes, events: SpanEvents): unknown[] | undefined {
  const taken = attributes.take('gen_ai.input.messages');
  if (taken !== undefined) return asArray(taken.value);
  const indexed = attributes.takeIndexed('gen_ai.prompt.');
  if (indexed.length > 0) return indexed;
  const openInference = attributes.takeIndexed('llm.input_messages.');
  if (openInference.length > 0) return openInference.map(unwrapMessage);
  const json = attributes.take('ai.prompt.messages', 'gen_ai.prompt');
  if (json !== undefined) return asArray(json.value);
  const perMessage = events.all.filter((event) => Object.hasOwn(ROLE_OF_EVENT, event.name));
  if (perMessage.length > 0) return consume(events, perMessage).map(messageOfEvent);
  const whole = events.all.find((event) => event.name === PROMPT_EVENT.name);
  if (whole !== undefined)
    return asArray(parseJsonValue(consume(events, [whole])[0]?.attributes[PROMPT_EVENT.key]));
  return undefined;
}

/**
 * A call's output from the first convention that has it: the model's
 * messages (`gen_ai.output.messages`, `gen_ai.completion.N.*`,
 * `llm.output_messages.N.message.*`, deprecated `gen_ai.completion` JSON,
 * `gen_ai.choice` events) — one message as itself, several as an array; the
 * AI SDK's `ai.response.text` / `ai.response.toolCalls` / `ai.response.object`;
 * OpenInference `output.value`; a tool's result (`gen_ai.tool.call.result`,
 * `ai.toolCall.result`) or `traceloop.entity.output`. `undefined` when none.
 */
export function outputOfSpan(attributes: SpanAttributes, events: SpanEvents): unknown {
  const messages = outputMessages(attributes, events);
  if (messages !== undefined) return messages.length === 1 ? messages[0] : messages;
  const text = attributes.take('ai.response.text');
  const toolCalls = attributes.take('ai.response.toolCalls');
  if (toolCalls !== undefined) {
    return { ...(text === undefined ? {} : { text: text.value }), toolCalls: toolCalls.value };
  }
  if (text !== undefined) return text.value;
  return attributes.take(
    'ai.response.object',
    'output.value',
    'gen_ai.tool.call.result',
    'ai.toolCall.result',
    'ai.toolCall.output',
    'traceloop.entity.output',
  )?.value;
}

function outputMessages(attributes: SpanAttributes, events: SpanEvents): unknown[] | undefined {
  const taken = attributes.take('gen_ai.output.messages');
  if (taken !== undefined) return asArray(taken.value);
  const indexed = attributes.takeIndexed('gen_ai.completion.');
  if (indexed.length > 0) return indexed;
  const openInference = attributes.takeIndexed('llm.output_messages.');
  if (openInference.length > 0) return openInference.map(unwrapMessage);
  const json = attributes.take('gen_ai.completion');
  if (json !== undefined) return asArray(json.value);
  const choices = events.all.filter((event) => event.name === CHOICE_EVENT);
  if (choices.length > 0) return consume(events, choices).map(messageOfEvent);
  const whole = events.all.find((event) => event.name === COMPLETION_EVENT.name);
  if (whole !== undefined) {
    return asArray(parseJsonValue(consume(events, [whole])[0]?.attributes[COMPLETION_EVENT.key]));
  }
  return undefined;
}

/**
 * A message event's fields: its role (from the event name), then its body
 * (`gen_ai.event.content` or `event.body`, JSON, as the log-based form
 * bridged onto a span carries it), then its plain attributes (`content`,
 * `tool_calls`, `message`, `finish_reason`, `index`). `gen_ai.system`-style
 * tags are left out: they describe the provider, not the message.
 */
function messageOfEvent(event: OtelEvent): Record<string, unknown> {
  const role = ROLE_OF_EVENT[event.name];
  const body = parseJsonValue(event.attributes['gen_ai.event.content'] ?? event.attributes['event.body']);
  // Spreads and setOwnKey, not plain assignment: a `__proto__` key stays a plain key.
  const message: Record<string, unknown> = {
    ...(role === undefined ? {} : { role }),
    ...(isPlainObject(body) ? body : body === undefined ? {} : { content: body }),
  };
  for (const [key, value] of Object.entries(event.attributes)) {
    if (value === undefined || key.startsWith('gen_ai.') || key === 'event.body' || key === 'event.name')
      continue;
    setOwnKey(message, key, parseJsonValue(value));
  }
  return message;
}

/** OpenInference nests each message under `message.` (`llm.input_messages.0.message.role`). */
function unwrapMessage(entry: unknown): unknown {
  return isPlainObject(entry) && isPlainObject(entry.message) ? entry.message : entry;
}

function consume(events: SpanEvents, taken: OtelEvent[]): OtelEvent[] {
  for (const event of taken) events.consumed.add(event);
  return taken;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
