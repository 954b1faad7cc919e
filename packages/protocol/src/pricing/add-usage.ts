import type { ModelUsage } from './model-usage.js';
import { roundUsd } from './model-cost.js';
import { setOwnKey } from '../values/index.js';

type UsageMap = Record<string, ModelUsage>;

/** The optional counts of {@link ModelUsage}, summed only where either side has them. */
const OPTIONAL_COUNTS = ['cachedInputTokens', 'cacheWriteTokens', 'reasoningTokens', 'costUsd'] as const;

/** `a + b` for a usage's optional count: absent on both sides stays absent (no cost is never 0). */
function sumOptional(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  return b === undefined ? a : a + b;
}

/**
 * Adds `from` into `into` (creating it when undefined) and returns it: how a
 * call's usage rolls up into its parent's, in the SDK (as each child ends)
 * and on the server (for calls made from OTLP spans). `from` is never
 * aliased: its entries are copied.
 */
export function addUsage(into: UsageMap | undefined, from: UsageMap | undefined): UsageMap | undefined {
  if (from === undefined) return into;
  const target = into ?? {};
  for (const model of Object.keys(from)) {
    const add = from[model] as ModelUsage;
    const have = Object.hasOwn(target, model) ? target[model] : undefined;
    if (have === undefined) {
      setOwnKey(target, model, { ...add });
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
    setOwnKey(target, model, sum);
  }
  return target;
}
