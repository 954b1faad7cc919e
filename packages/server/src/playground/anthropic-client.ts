import type { PlaygroundMessage } from '@weft/protocol';
import type { ProviderChunk, ProviderClient, ProviderRequest } from './provider-chunk.js';
import { postStream } from './post-stream.js';
import { ProviderError } from './provider-error.js';

/** Anthropic requires `max_tokens`; this is what a run without one asks for. */
const DEFAULT_MAX_TOKENS = 1_024;

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}

/**
 * The playground's messages as Anthropic's: the system text apart, an
 * assistant's tool calls as `tool_use` blocks, and tool results as
 * `tool_result` blocks of a user message (consecutive ones in one message).
 */
function anthropicMessages(messages: readonly PlaygroundMessage[]): {
  system: string;
  messages: Record<string, unknown>[];
} {
  const system: string[] = [];
  const out: { role: string; content: Record<string, unknown>[] }[] = [];
  const push = (role: string, block: Record<string, unknown>) => {
    const last = out.at(-1);
    if (last?.role === role) last.content.push(block);
    else out.push({ role, content: [block] });
  };
  for (const m of messages) {
    if (m.role === 'system') system.push(m.content);
    else if (m.role === 'tool')
      push('user', { type: 'tool_result', tool_use_id: m.toolCallId ?? '', content: m.content });
    else {
      if (m.content !== '') push(m.role, { type: 'text', text: m.content });
      for (const call of m.toolCalls ?? []) {
        push(m.role, {
          type: 'tool_use',
          id: call.id,
          name: call.name,
          input: parseArguments(call.arguments),
        });
      }
    }
  }
  return { system: system.join('\n\n'), messages: out };
}

interface StreamEvent {
  type?: string;
  index?: number;
  message?: { usage?: Usage };
  content_block?: { type?: string; id?: string; name?: string; text?: string };
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string };
  usage?: Usage;
  error?: { message?: string };
}
interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

/** Anthropic's Messages API (`POST {baseUrl}/v1/messages`, streamed). */
export function anthropicClient(provider: { id: string; baseUrl: string; apiKey: string }): ProviderClient {
  const body = ({ model, messages, tools, parameters }: ProviderRequest) => {
    const converted = anthropicMessages(messages);
    return {
      model,
      max_tokens: parameters.maxTokens ?? DEFAULT_MAX_TOKENS,
      ...(converted.system === '' ? {} : { system: converted.system }),
      messages: converted.messages,
      ...(tools.length > 0
        ? {
            tools: tools.map((t) => ({
              name: t.name,
              description: t.description,
              input_schema: t.parameters ?? { type: 'object' },
            })),
          }
        : {}),
      ...(parameters.temperature === undefined ? {} : { temperature: Math.min(1, parameters.temperature) }),
      ...(parameters.topP === undefined ? {} : { top_p: parameters.topP }),
    };
  };
  return {
    body,
    async *stream(request, signal): AsyncGenerator<ProviderChunk> {
      const events = postStream({
        provider: provider.id,
        url: `${provider.baseUrl.replace(/\/$/, '')}/v1/messages`,
        headers: { 'x-api-key': provider.apiKey, 'anthropic-version': '2023-06-01' },
        body: { ...body(request), stream: true },
        secret: provider.apiKey,
        signal,
      });
      // Input tokens arrive with `message_start`, output tokens with `message_delta`.
      let input: Usage = {};
      const blocks = new Map<number, number>();
      for await (const event of events) {
        let e: StreamEvent;
        try {
          e = JSON.parse(event.data) as StreamEvent;
        } catch {
          throw new ProviderError(
            `${provider.id} sent a stream event that is not JSON: ${event.data.slice(0, 200)}`,
          );
        }
        switch (e.type) {
          case 'message_start':
            input = e.message?.usage ?? {};
            break;
          case 'content_block_start':
            if (e.content_block?.type === 'tool_use') {
              const index = blocks.size;
              blocks.set(e.index ?? 0, index);
              yield {
                type: 'tool-call',
                index,
                id: e.content_block.id,
                name: e.content_block.name,
                arguments: '',
              };
            } else if (e.content_block?.text) yield { type: 'text', text: e.content_block.text };
            break;
          case 'content_block_delta':
            if (e.delta?.type === 'text_delta' && e.delta.text) yield { type: 'text', text: e.delta.text };
            else if (e.delta?.type === 'input_json_delta') {
              yield {
                type: 'tool-call',
                index: blocks.get(e.index ?? 0) ?? 0,
                arguments: e.delta.partial_json ?? '',
              };
            }
            break;
          case 'message_delta': {
            const read = input.cache_read_input_tokens ?? 0;
            const write = input.cache_creation_input_tokens ?? 0;
            // Anthropic's input_tokens exclude cache reads and writes; Weft counts every input token.
            yield {
              type: 'usage',
              inputTokens: (input.input_tokens ?? 0) + read + write,
              outputTokens: e.usage?.output_tokens ?? 0,
              cachedInputTokens: read || undefined,
              cacheWriteTokens: write || undefined,
            };
            yield { type: 'finish', reason: e.delta?.stop_reason };
            break;
          }
          case 'error':
            throw new ProviderError(
              `${provider.id} failed mid-stream: ${e.error?.message ?? 'unknown error'}`,
            );
          default:
            break;
        }
      }
    },
  };
}
