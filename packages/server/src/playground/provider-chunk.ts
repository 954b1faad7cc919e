import type { PlaygroundMessage, PlaygroundParameters, PlaygroundTool } from '@weft/protocol';

/** What a provider's stream says, whatever its wire format. */
export type ProviderChunk =
  | { type: 'text'; text: string }
  /** A piece of tool call `index`: its id and name when they arrive, then pieces of its arguments. */
  | {
      type: 'tool-call';
      index: number;
      id?: string | undefined;
      name?: string | undefined;
      arguments: string;
    }
  | {
      type: 'usage';
      inputTokens: number;
      outputTokens: number;
      cachedInputTokens?: number | undefined;
      cacheWriteTokens?: number | undefined;
      reasoningTokens?: number | undefined;
    }
  | { type: 'finish'; reason: string | undefined };

/** One request to a provider, in the playground's neutral shape. */
export interface ProviderRequest {
  model: string;
  messages: readonly PlaygroundMessage[];
  tools: readonly PlaygroundTool[];
  parameters: PlaygroundParameters;
}

/** A provider's wire format: the request body it takes (recorded as the run's inputs) and its streamed reply. */
export interface ProviderClient {
  /** The request body as sent, less the streaming flags: what the run's call records as its inputs. */
  body(request: ProviderRequest): Record<string, unknown>;
  stream(request: ProviderRequest, signal: AbortSignal): AsyncGenerator<ProviderChunk>;
}
