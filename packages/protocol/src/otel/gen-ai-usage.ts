import { type PriceOverrides, priceUsage } from '../pricing/index.js';
import type { ModelUsage } from '../schemas/index.js';
import type { OtelAttributes } from './otel-span.js';
import { SpanAttributes } from './span-attributes.js';

/**
 * Attribute keys per usage field, first match wins: the current OTel GenAI
 * conventions, their older spellings (OpenLLMetry), OpenInference, then the
 * AI SDK (v5 names before v4's). Every convention counts cached reads and
 * cache writes inside the input tokens and reasoning inside the output
 * tokens, which is what `ModelUsage` means too, so counts are taken as they are.
 */
export const USAGE_KEYS = {
  model: [
    'gen_ai.response.model',
    'gen_ai.request.model',
    'llm.model_name',
    'ai.response.model',
    'ai.model.id',
  ],
  inputTokens: [
    'gen_ai.usage.input_tokens',
    'gen_ai.usage.prompt_tokens',
    'llm.token_count.prompt',
    'ai.usage.inputTokens',
    'ai.usage.promptTokens',
    // The AI SDK's embed / embedMany spans: the embedded input's tokens.
    'ai.usage.tokens',
  ],
  outputTokens: [
    'gen_ai.usage.output_tokens',
    'gen_ai.usage.completion_tokens',
    'llm.token_count.completion',
    'ai.usage.outputTokens',
    'ai.usage.completionTokens',
  ],
  totalTokens: [
    'gen_ai.usage.total_tokens',
    'llm.usage.total_tokens',
    'llm.token_count.total',
    'ai.usage.totalTokens',
  ],
  cachedInputTokens: [
    'gen_ai.usage.cache_read.input_tokens',
    'gen_ai.usage.cache_read_input_tokens',
    'gen_ai.usage.input_tokens.cached',
    'llm.token_count.prompt_details.cache_read',
    'ai.usage.cachedInputTokens',
  ],
  cacheWriteTokens: [
    'gen_ai.usage.cache_creation.input_tokens',
    'gen_ai.usage.cache_creation_input_tokens',
    'gen_ai.usage.input_tokens.cache_write',
    'llm.token_count.prompt_details.cache_write',
  ],
  reasoningTokens: [
    'gen_ai.usage.reasoning.output_tokens',
    'gen_ai.usage.output_tokens.reasoning',
    'gen_ai.usage.reasoning_tokens',
    'llm.token_count.completion_details.reasoning',
    'ai.usage.reasoningTokens',
  ],
} as const;

/** Model key for spans that report tokens but no model. */
export const UNKNOWN_MODEL = 'unknown';

/**
 * The usage a span reports, keyed by model and priced (`costUsd` on a priced
 * model only), or `undefined` when it reports no token counts. A span's usage
 * attributes are read as its call's `summary.usage`: for the AI SDK's outer
 * spans (`ai.generateText`) they already total the steps beneath. The token
 * counts it reads are consumed (not repeated in the call's `attributes`).
 */
export function usageOfSpan(
  attributes: SpanAttributes,
  prices: PriceOverrides | undefined,
): Record<string, ModelUsage> | undefined {
  const input = attributes.takeCount(...USAGE_KEYS.inputTokens);
  const output = attributes.takeCount(...USAGE_KEYS.outputTokens);
  const total = attributes.takeCount(...USAGE_KEYS.totalTokens);
  if (input === undefined && output === undefined && total === undefined) return undefined;
  const entry: ModelUsage = {
    requests: 1,
    inputTokens: input ?? 0,
    outputTokens: output ?? 0,
    totalTokens: total ?? (input ?? 0) + (output ?? 0),
  };
  const cached = attributes.takeCount(...USAGE_KEYS.cachedInputTokens);
  const written = attributes.takeCount(...USAGE_KEYS.cacheWriteTokens);
  const reasoning = attributes.takeCount(...USAGE_KEYS.reasoningTokens);
  if (cached !== undefined) entry.cachedInputTokens = cached;
  if (written !== undefined) entry.cacheWriteTokens = written;
  if (reasoning !== undefined) entry.reasoningTokens = reasoning;
  const model = modelOfSpan(attributes) ?? UNKNOWN_MODEL;
  return priceUsage({ [model]: entry }, prices);
}

/** The model a span names, the response's before the request's. */
export function modelOfSpan(attributes: SpanAttributes): string | undefined {
  return attributes.string(...USAGE_KEYS.model);
}

/**
 * What a span's own usage counts, for rolling usage up a trace:
 * - `self`: only the model call the span itself made (or nothing): a parent
 *   adds its children's totals to it, as the SDK does;
 * - `steps`: the span already totals the model calls beneath it, so children
 *   that report usage of their own (those steps) are not added again; usage
 *   under its other children (a tool call's nested agent) still is.
 */
export type UsageScope = 'self' | 'steps';

/**
 * The AI SDK's outer operations: their `ai.usage.*` attributes total the
 * steps (`…doGenerate`, `…doStream`, `…doEmbed` spans) beneath them.
 */
const AI_SDK_TOTALING_OPERATIONS: ReadonlySet<string> = new Set([
  'ai.generateText',
  'ai.streamText',
  'ai.generateObject',
  'ai.streamObject',
  'ai.embed',
  'ai.embedMany',
]);

/** The {@link UsageScope} of a span that reports `usage` (`self` when it reports none). */
export function usageScopeOfSpan(
  attributes: SpanAttributes,
  spanName: string,
  usage: Record<string, ModelUsage> | undefined,
): UsageScope {
  if (usage === undefined) return 'self';
  const operation = attributes.string('ai.operationId') ?? spanName;
  return AI_SDK_TOTALING_OPERATIONS.has(operation) ? 'steps' : 'self';
}

/** A span's own usage and what it counts (see {@link UsageScope}). */
export interface SpanOwnUsage {
  /** Priced, keyed by model; `undefined` when the span reports no token counts. */
  usage: Record<string, ModelUsage> | undefined;
  scope: UsageScope;
}

/**
 * The usage a span reports itself, from its raw attributes, and its scope:
 * what a roll-up of usage up a trace starts from (the SDK's, as spans end
 * in-process; the server's, as they are stored). Reads the usage keys only.
 */
export function spanOwnUsage(
  attributes: OtelAttributes,
  spanName: string,
  prices: PriceOverrides | undefined,
): SpanOwnUsage {
  const read = new SpanAttributes(attributes);
  const usage = usageOfSpan(read, prices);
  return { usage, scope: usageScopeOfSpan(read, spanName, usage) };
}
