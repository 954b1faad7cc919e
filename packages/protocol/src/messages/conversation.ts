import type { Conversation, ConversationFormat, Message, ToolDefinition, MessageCall } from './message.js';
import { partsOf } from './parts.js';
import { readMessage, readMessages } from './read-message.js';
import { isRecord, str } from './values.js';

/** Request fields that are the conversation itself, not sampling parameters. */
const NOT_PARAMETERS = new Set([
  'messages',
  'input',
  'system',
  'instructions',
  'tools',
  'model',
  'stream',
  'stream_options',
  'prompt',
  'metadata',
  'store',
]);

/**
 * The input messages of a call's inputs, from the first shape that has them:
 * `messages` (chat completions, Anthropic, GenAI and OpenInference spans,
 * the AI SDK's `ai.prompt.messages`), a Responses `input` (text or items),
 * or the AI SDK's `prompt`. System instructions (`system`, `instructions`)
 * come first as a system message.
 */
function inputMessages(inputs: Record<string, unknown>): Message[] | undefined {
  const prompt = isRecord(inputs.prompt) ? inputs.prompt : undefined;
  let messages = readMessages(inputs.messages) ?? readMessages(prompt?.messages);
  if (messages === undefined && inputs.input !== undefined) {
    messages =
      typeof inputs.input === 'string'
        ? [{ role: 'user', parts: partsOf(inputs.input) }]
        : readMessages(inputs.input);
  }
  if (messages === undefined && typeof (prompt?.prompt ?? inputs.prompt) === 'string') {
    messages = [{ role: 'user', parts: partsOf(prompt?.prompt ?? inputs.prompt) }];
  }
  if (messages === undefined) return undefined;
  const system = inputs.system ?? inputs.instructions ?? prompt?.system;
  const systemParts = partsOf(system);
  return systemParts.length > 0 ? [{ role: 'system', parts: systemParts }, ...messages] : messages;
}

/**
 * The model's reply from a call's output: a chat completion's choices, a
 * Responses `output`, an Anthropic message, GenAI or OpenInference output
 * messages (one or several), the AI SDK's `{ text, toolCalls }`, or text.
 */
export function outputMessages(output: unknown): Message[] {
  if (output === undefined || output === null) return [];
  if (typeof output === 'string') return [{ role: 'assistant', parts: partsOf(output) }];
  if (Array.isArray(output)) return readMessages(output) ?? [];
  if (!isRecord(output)) return [];
  if (Array.isArray(output.choices)) {
    return output.choices.flatMap((choice) =>
      isRecord(choice) && isRecord(choice.message) ? [readMessage(choice.message)] : [],
    );
  }
  if (Array.isArray(output.output)) {
    const items = readMessages(output.output) ?? [];
    // A Responses reply is one assistant turn made of several items.
    return items.length > 0 ? [{ role: 'assistant', parts: items.flatMap((m) => m.parts) }] : [];
  }
  if (typeof output.role === 'string') return [readMessage(output)];
  if (typeof output.text === 'string' || Array.isArray(output.toolCalls)) {
    const parts = partsOf(output.text);
    if (Array.isArray(output.toolCalls)) {
      for (const call of output.toolCalls) parts.push(...partsOf({ type: 'tool-call', ...(call as object) }));
    }
    return [{ role: 'assistant', parts }];
  }
  return [];
}

/** Declared tools: OpenAI chat `{ function: { … } }`, Responses and AI SDK `{ name, parameters }`, Anthropic `input_schema`. */
function toolDefinitions(tools: unknown): ToolDefinition[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool): ToolDefinition[] => {
    if (!isRecord(tool)) return [];
    const fn = isRecord(tool.function) ? tool.function : tool;
    const name = str(fn.name);
    if (name === undefined) return [];
    return [
      {
        name,
        description: str(fn.description),
        parameters: fn.parameters ?? fn.input_schema ?? fn.inputSchema,
      },
    ];
  });
}

function formatOf(call: MessageCall, inputs: Record<string, unknown>): ConversationFormat {
  const op = call.opName;
  if (op.startsWith('openai.responses') || (inputs.input !== undefined && inputs.messages === undefined)) {
    return 'openai-responses';
  }
  if (op.startsWith('anthropic.')) return 'anthropic';
  if (op.startsWith('openai.')) return 'openai-chat';
  if (op.startsWith('ai.')) return 'ai-sdk';
  const attributes = call.attributes ?? {};
  if (Object.keys(attributes).some((k) => k.startsWith('gen_ai.'))) return 'genai';
  if (typeof inputs.max_tokens === 'number' && inputs.system !== undefined) return 'anthropic';
  return 'chat';
}

function modelOf(call: MessageCall, inputs: Record<string, unknown>): string | undefined {
  const output = call.output;
  const attributes = call.attributes ?? {};
  return (
    str(inputs.model) ??
    (isRecord(output) ? str(output.model) : undefined) ??
    str(attributes['gen_ai.request.model']) ??
    str(attributes['gen_ai.response.model']) ??
    str(attributes['llm.model_name']) ??
    str(attributes['ai.model.id']) ??
    Object.keys(call.summary?.usage ?? {})[0]
  );
}

/**
 * A model call read as a conversation, or undefined when its inputs hold no
 * messages (any other op). Never throws: what it cannot read stays in the
 * raw JSON, one click away.
 */
export function conversationOf(call: MessageCall): Conversation | undefined {
  const recorded = isRecord(call.inputs) ? call.inputs : {};
  // A user's op around a model call often takes the request as one argument: `llm(request)`.
  const only = Object.values(recorded);
  const inputs =
    inputMessages(recorded) === undefined && only.length === 1 && isRecord(only[0]) ? only[0] : recorded;
  const input = inputMessages(inputs);
  if (input === undefined) return undefined;
  const parameters: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(inputs)) {
    if (!NOT_PARAMETERS.has(key) && value !== undefined) parameters[key] = value;
  }
  return {
    format: formatOf(call, inputs),
    input,
    output: call.exception ? [] : outputMessages(call.output),
    tools: toolDefinitions(inputs.tools),
    model: modelOf(call, inputs),
    parameters,
  };
}
