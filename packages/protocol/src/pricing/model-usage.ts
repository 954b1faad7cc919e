/**
 * Token usage of one model, summed over calls. `inputTokens` counts every
 * input token, cached reads (`cachedInputTokens`) and cache writes
 * (`cacheWriteTokens`) included; `outputTokens` includes `reasoningTokens`.
 * `costUsd` is present only when the model has a price (never 0 for an
 * unpriced model).
 */
export interface ModelUsage {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cachedInputTokens?: number | undefined;
  cacheWriteTokens?: number | undefined;
  reasoningTokens?: number | undefined;
  costUsd?: number | undefined;
}
