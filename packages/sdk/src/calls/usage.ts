import type { ModelUsage } from '@weft/protocol';

type UsageMap = Record<string, ModelUsage>;

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** A nested count: `usage[details][key]` (e.g. `prompt_tokens_details.cached_tokens`). */
function detail(u: Record<string, unknown>, details: string, key: string): number | undefined {
  const d = u[details];
  return typeof d === 'object' && d !== null ? num((d as Record<string, unknown>)[key]) : undefined;
}

/**
 * Token usage carried by an LLM-style output, keyed by the output's `model`
 * (`'unknown'` without one):
 * - OpenAI Chat Completions / Embeddings: `prompt_tokens`, `completion_tokens`,
 *   `total_tokens`, `prompt_tokens_details.cached_tokens`,
 *   `completion_tokens_details.reasoning_tokens`;
 * - OpenAI Responses: `input_tokens`, `output_tokens`, `total_tokens`,
 *   `input_tokens_details.cached_tokens`, `output_tokens_details.reasoning_tokens`;
 * - Anthropic: `input_tokens` (WITHOUT cache tokens), `output_tokens`,
 *   `cache_read_input_tokens`, `cache_creation_input_tokens`: both are added
 *   into `inputTokens`, which counts every input token (see {@link ModelUsage});
 * - camelCase variants (`promptTokens`, `inputTokens`, …).
 * Cached, cache-write and reasoning counts are set only when non-zero.
 * Constant work: a handful of property reads, guarded because outputs may be
 * hostile (throwing getters, proxies).
 */
export function usageOf(output: unknown): UsageMap | undefined {
  if (typeof output !== 'object' || output === null) return undefined;
  try {
    const usage = (output as { usage?: unknown }).usage;
    if (typeof usage !== 'object' || usage === null) return undefined;
    const u = usage as Record<string, unknown>;
    const reported = num(u.prompt_tokens) ?? num(u.input_tokens) ?? num(u.promptTokens) ?? num(u.inputTokens);
    const out =
      num(u.completion_tokens) ?? num(u.output_tokens) ?? num(u.completionTokens) ?? num(u.outputTokens);
    const total = num(u.total_tokens) ?? num(u.totalTokens);
    if (reported === undefined && out === undefined && total === undefined) return undefined;
    // Anthropic reports cache reads and writes beside input_tokens, not in it.
    const cacheRead = num(u.cache_read_input_tokens);
    const cacheWrite = num(u.cache_creation_input_tokens);
    const cached =
      cacheRead ??
      detail(u, 'prompt_tokens_details', 'cached_tokens') ??
      detail(u, 'input_tokens_details', 'cached_tokens') ??
      num(u.cachedInputTokens);
    const reasoning =
      detail(u, 'completion_tokens_details', 'reasoning_tokens') ??
      detail(u, 'output_tokens_details', 'reasoning_tokens') ??
      num(u.reasoningTokens);
    const model = (output as { model?: unknown }).model;
    const key = typeof model === 'string' && model.length > 0 ? model : 'unknown';
    const inputTokens = (reported ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0);
    const outputTokens = out ?? 0;
    const entry: ModelUsage = {
      requests: 1,
      inputTokens,
      outputTokens,
      totalTokens: total ?? inputTokens + outputTokens,
    };
    if (cached) entry.cachedInputTokens = cached;
    if (cacheWrite) entry.cacheWriteTokens = cacheWrite;
    if (reasoning) entry.reasoningTokens = reasoning;
    return { [key]: entry };
  } catch {
    return undefined;
  }
}

/** Summing usage is one mechanism shared with the server's OTLP roll-up. */
export { addUsage } from '@weft/protocol';
