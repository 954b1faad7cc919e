import { type ModelUsage, roundUsd } from '@weft/protocol';

type UsageMap = Record<string, ModelUsage>;

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * Token usage carried by an LLM-style output: OpenAI (`usage.prompt_tokens`,
 * `completion_tokens`, `total_tokens`), Anthropic (`usage.input_tokens`,
 * `output_tokens`) or camelCase variants, keyed by the output's `model`
 * (`'unknown'` without one). Constant work: a handful of property reads,
 * guarded because outputs may be hostile (throwing getters, proxies).
 */
export function usageOf(output: unknown): UsageMap | undefined {
  if (typeof output !== 'object' || output === null) return undefined;
  try {
    const usage = (output as { usage?: unknown }).usage;
    if (typeof usage !== 'object' || usage === null) return undefined;
    const u = usage as Record<string, unknown>;
    const input = num(u.prompt_tokens) ?? num(u.input_tokens) ?? num(u.promptTokens) ?? num(u.inputTokens);
    const out = num(u.completion_tokens) ?? num(u.output_tokens) ?? num(u.completionTokens) ?? num(u.outputTokens);
    const total = num(u.total_tokens) ?? num(u.totalTokens);
    if (input === undefined && out === undefined && total === undefined) return undefined;
    const model = (output as { model?: unknown }).model;
    const key = typeof model === 'string' && model.length > 0 ? model : 'unknown';
    const inputTokens = input ?? 0;
    const outputTokens = out ?? 0;
    return { [key]: { requests: 1, inputTokens, outputTokens, totalTokens: total ?? inputTokens + outputTokens } };
  } catch {
    return undefined;
  }
}

/** The optional counts of {@link ModelUsage}, summed only where either side has them. */
const OPTIONAL_COUNTS = ['cachedInputTokens', 'cacheWriteTokens', 'reasoningTokens', 'costUsd'] as const;

/** `a + b` for a usage's optional count: absent on both sides stays absent (no cost is never 0). */
function sumOptional(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  return b === undefined ? a : a + b;
}

/** Adds `from` into `into` (creating it when undefined) and returns it. */
export function addUsage(into: UsageMap | undefined, from: UsageMap | undefined): UsageMap | undefined {
  if (from === undefined) return into;
  const target = into ?? {};
  for (const model of Object.keys(from)) {
    const add = from[model] as ModelUsage;
    const have = target[model];
    if (have === undefined) {
      target[model] = { ...add };
      continue;
    }
    const sum: ModelUsage = {
      requests: have.requests + add.requests,
      inputTokens: have.inputTokens + add.inputTokens,
      outputTokens: have.outputTokens + add.outputTokens,
      totalTokens: have.totalTokens + add.totalTokens,
    };
    for (const key of OPTIONAL_COUNTS) {
      const value = sumOptional(have[key], add[key]);
      if (value !== undefined) sum[key] = key === 'costUsd' ? roundUsd(value) : value;
    }
    target[model] = sum;
  }
  return target;
}
