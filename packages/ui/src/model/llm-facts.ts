import type { Call } from '../api/index.js';

/** Token counts of a call summed over its models (its own and its descendants'). */
export interface TokenCounts {
  input: number;
  output: number;
  /** Input tokens read from a prompt cache (part of `input`). */
  cached: number;
  /** Output tokens spent reasoning (part of `output`). */
  reasoning: number;
  total: number;
}

/** What the header of a model call shows. */
export interface LlmFacts {
  /** Models used, most tokens first. */
  models: string[];
  provider: string | undefined;
  tokens: TokenCounts | undefined;
  costUsd: number | undefined;
  timeToFirstTokenMs: number | undefined;
}

const PROVIDER_ATTRIBUTES = [
  'gen_ai.provider.name',
  'gen_ai.system',
  'ai.model.provider',
  'llm.provider',
  'llm.system',
];

function providerOf(call: Call): string | undefined {
  const prefix = /^(openai|anthropic)\./.exec(call.opName)?.[1];
  if (prefix !== undefined) return prefix;
  for (const key of PROVIDER_ATTRIBUTES) {
    const value = call.attributes?.[key];
    // The AI SDK says `openai.chat`: the provider is its first word.
    if (typeof value === 'string' && value !== '') return value.split('.')[0];
  }
  return undefined;
}

/** Tokens, cost, models and time to first token of a call, from its summary (which includes its descendants'). */
export function llmFacts(call: Pick<Call, 'summary' | 'opName' | 'attributes'>): LlmFacts {
  const usage = Object.entries(call.summary?.usage ?? {});
  let tokens: TokenCounts | undefined;
  for (const [, u] of usage) {
    tokens ??= { input: 0, output: 0, cached: 0, reasoning: 0, total: 0 };
    tokens.input += u.inputTokens;
    tokens.output += u.outputTokens;
    tokens.cached += u.cachedInputTokens ?? 0;
    tokens.reasoning += u.reasoningTokens ?? 0;
    tokens.total += u.totalTokens || u.inputTokens + u.outputTokens;
  }
  const ttft = call.summary?.timeToFirstTokenMs;
  return {
    models: usage.sort(([, a], [, b]) => b.totalTokens - a.totalTokens).map(([model]) => model),
    provider: providerOf(call as Call),
    tokens,
    costUsd: call.summary?.costUsd,
    timeToFirstTokenMs: typeof ttft === 'number' && Number.isFinite(ttft) ? ttft : undefined,
  };
}
