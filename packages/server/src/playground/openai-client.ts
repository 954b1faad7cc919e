import type { PlaygroundMessage } from '@weft/protocol';
import type { ProviderChunk, ProviderClient, ProviderRequest } from './provider-chunk.js';
import { postStream } from './post-stream.js';
import { ProviderError } from './provider-error.js';

function chatMessage(message: PlaygroundMessage): Record<string, unknown> {
  if (message.role === 'tool')
    return { role: 'tool', tool_call_id: message.toolCallId ?? '', content: message.content };
  if (message.role === 'assistant' && message.toolCalls !== undefined && message.toolCalls.length > 0) {
    return {
      role: 'assistant',
      content: message.content === '' ? null : message.content,
      tool_calls: message.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      })),
    };
  }
  return { role: message.role, content: message.content };
}

interface ChatChunk {
  choices?: {
    delta?: {
      content?: string | null;
      tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number };
    completion_tokens_details?: { reasoning_tokens?: number };
  } | null;
}

/** Any OpenAI-compatible chat completions endpoint (`POST {baseUrl}/chat/completions`, streamed with usage). */
export function openaiClient(provider: { id: string; baseUrl: string; apiKey: string }): ProviderClient {
  const body = ({ model, messages, tools, parameters }: ProviderRequest) => ({
    model,
    messages: messages.map(chatMessage),
    ...(tools.length > 0
      ? {
          tools: tools.map((t) => ({
            type: 'function',
            function: {
              name: t.name,
              description: t.description,
              parameters: t.parameters ?? { type: 'object' },
            },
          })),
        }
      : {}),
    ...(parameters.temperature === undefined ? {} : { temperature: parameters.temperature }),
    ...(parameters.topP === undefined ? {} : { top_p: parameters.topP }),
    ...(parameters.maxTokens === undefined ? {} : { max_tokens: parameters.maxTokens }),
  });
  return {
    body,
    async *stream(request, signal): AsyncGenerator<ProviderChunk> {
      const events = postStream({
        provider: provider.id,
        url: `${provider.baseUrl.replace(/\/$/, '')}/chat/completions`,
        headers: { authorization: `Bearer ${provider.apiKey}` },
        body: { ...body(request), stream: true, stream_options: { include_usage: true } },
        secret: provider.apiKey,
        signal,
      });
      for await (const event of events) {
        if (event.data === '[DONE]') return;
        let chunk: ChatChunk & { error?: { message?: string } };
        try {
          chunk = JSON.parse(event.data) as typeof chunk;
        } catch {
          throw new ProviderError(
            `${provider.id} sent a stream event that is not JSON: ${event.data.slice(0, 200)}`,
          );
        }
        if (chunk.error)
          throw new ProviderError(
            `${provider.id} failed mid-stream: ${chunk.error.message ?? 'unknown error'}`,
          );
        for (const choice of chunk.choices ?? []) {
          const delta = choice.delta;
          if (delta?.content) yield { type: 'text', text: delta.content };
          for (const call of delta?.tool_calls ?? []) {
            yield {
              type: 'tool-call',
              index: call.index ?? 0,
              id: call.id,
              name: call.function?.name,
              arguments: call.function?.arguments ?? '',
            };
          }
          if (choice.finish_reason) yield { type: 'finish', reason: choice.finish_reason };
        }
        if (chunk.usage) {
          yield {
            type: 'usage',
            inputTokens: chunk.usage.prompt_tokens ?? 0,
            outputTokens: chunk.usage.completion_tokens ?? 0,
            cachedInputTokens: chunk.usage.prompt_tokens_details?.cached_tokens,
            reasoningTokens: chunk.usage.completion_tokens_details?.reasoning_tokens,
          };
        }
      }
    },
  };
}
