import { randomUUID } from 'node:crypto';
import {
  type CallSummary,
  type ModelUsage,
  type PlaygroundEvent,
  type PlaygroundRunParsed,
  priceUsage,
  totalCostUsd,
} from '@weft/protocol';
import type { Storage } from '../storage/index.js';
import { anthropicClient } from './anthropic-client.js';
import { ReplyAssembler } from './assemble-reply.js';
import { openaiClient } from './openai-client.js';
import type { PlaygroundProviderConfig } from './provider-config.js';
import { ProviderError } from './provider-error.js';

/** Op name of a playground run's call. */
export const PLAYGROUND_OP = 'playground.run';

/**
 * Runs one playground request against its provider, streaming each piece
 * to `send` as it arrives, and traces it as a call in the run's project:
 * its start before the request (so it shows as running), its end with the
 * reply, usage and cost (priced from the same table as the SDK's calls), or
 * with the provider's error. The inputs recorded are the request as sent,
 * without the key, which lives in headers only.
 */
export async function runPlayground(
  run: PlaygroundRunParsed,
  options: {
    provider: Required<Pick<PlaygroundProviderConfig, 'id' | 'kind' | 'baseUrl' | 'apiKey'>>;
    storage: Storage;
    send: (event: PlaygroundEvent) => void;
    signal: AbortSignal;
  },
): Promise<void> {
  const { provider, storage, send, signal } = options;
  const client = provider.kind === 'anthropic' ? anthropicClient(provider) : openaiClient(provider);
  const request = { model: run.model, messages: run.messages, tools: run.tools, parameters: run.parameters };
  const id = randomUUID();
  const startedAt = Date.now();
  const started = performance.now();
  await storage.ingestCalls(run.project, [
    {
      type: 'start',
      id,
      traceId: id,
      parentId: null,
      opName: PLAYGROUND_OP,
      displayName: `playground: ${run.model}`,
      startedAt,
      inputs: client.body(request),
      attributes: {
        'weft.playground.provider': provider.id,
        'gen_ai.provider.name': provider.kind,
        'gen_ai.request.model': run.model,
        ...(run.sourceCallId === undefined ? {} : { 'weft.playground.source_call': run.sourceCallId }),
      },
    },
  ]);
  const reply = new ReplyAssembler();
  let firstTokenMs: number | undefined;
  try {
    for await (const chunk of client.stream(request, signal)) {
      reply.add(chunk);
      if (chunk.type === 'text' || chunk.type === 'tool-call') {
        firstTokenMs ??= performance.now() - started;
        send(chunk);
      }
    }
  } catch (error) {
    const failure = ProviderError.isInstance(error)
      ? error
      : new ProviderError(
          `${provider.id} failed: ${(error as Error)?.message ?? String(error)}`,
          undefined,
          error,
        );
    const latencyMs = performance.now() - started;
    await storage.ingestCalls(run.project, [
      {
        type: 'end',
        id,
        endedAt: startedAt + latencyMs,
        exception: {
          name: 'ProviderError',
          message: failure.message,
          code: failure.code,
          ...(failure.statusCode === undefined ? {} : { statusCode: failure.statusCode }),
        },
        summary: { latencyMs, status: 'error' },
      },
    ]);
    send({
      type: 'error',
      callId: id,
      traceId: id,
      statusCode: failure.statusCode,
      message: failure.message,
    });
    return;
  }
  const latencyMs = performance.now() - started;
  const usage = usageOf(run.model, reply.usage);
  const costUsd = totalCostUsd(usage);
  const summary: CallSummary = { latencyMs, status: 'success' };
  if (usage !== undefined) summary.usage = usage;
  if (costUsd !== undefined) summary.costUsd = costUsd;
  if (firstTokenMs !== undefined) summary.timeToFirstTokenMs = firstTokenMs;
  await storage.ingestCalls(run.project, [
    {
      type: 'end',
      id,
      endedAt: startedAt + latencyMs,
      output: reply.output(provider.kind, run.model),
      summary,
    },
  ]);
  const tokens = usage?.[run.model];
  send({
    type: 'done',
    callId: id,
    traceId: id,
    finishReason: reply.finishReason,
    usage:
      tokens === undefined
        ? undefined
        : {
            inputTokens: tokens.inputTokens,
            outputTokens: tokens.outputTokens,
            ...(tokens.cachedInputTokens === undefined
              ? {}
              : { cachedInputTokens: tokens.cachedInputTokens }),
            ...(tokens.reasoningTokens === undefined ? {} : { reasoningTokens: tokens.reasoningTokens }),
          },
    costUsd,
    latencyMs,
    timeToFirstTokenMs: firstTokenMs,
  });
}

/** The run's usage by model, priced (no cost for an unpriced model, never 0). */
function usageOf(model: string, reported: ReplyAssembler['usage']): Record<string, ModelUsage> | undefined {
  if (reported === undefined) return undefined;
  const entry: ModelUsage = {
    requests: 1,
    inputTokens: reported.inputTokens,
    outputTokens: reported.outputTokens,
    totalTokens: reported.inputTokens + reported.outputTokens,
  };
  if (reported.cachedInputTokens) entry.cachedInputTokens = reported.cachedInputTokens;
  if (reported.cacheWriteTokens) entry.cacheWriteTokens = reported.cacheWriteTokens;
  if (reported.reasoningTokens) entry.reasoningTokens = reported.reasoningTokens;
  return priceUsage({ [model]: entry });
}
