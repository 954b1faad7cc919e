import type { ModelUsage } from './model-usage.js';
import { type ModelPrice, PRICE_TABLE } from './price-table.js';

/** Extra or overriding prices, by model id, as given to `weft.init({ prices })`. */
export type PriceOverrides = Readonly<Record<string, ModelPrice>>;

/** Provider prefixes that some clients put before the model id (`openai/gpt-4o`, `models/gemini-2.5-pro`). */
const PROVIDER_PREFIX = /^(?:openai|anthropic|google|gemini|vertex|models|azure)[/:]/;

/**
 * The price of `model`: an exact entry in `overrides`, then in the built-in
 * table; else, after dropping a provider prefix, the longest key that the id
 * starts with followed by `-`, `@` or `:` (so `gpt-4o-2024-08-06` finds
 * `gpt-4o`, and `gpt-4o-mini-2024-07-18` finds `gpt-4o-mini`, never `gpt-4o`).
 * Overrides win over the built-in table at every step. `undefined` when no
 * entry fits: such a model gets no cost, never 0.
 */
export function findModelPrice(model: string, overrides?: PriceOverrides): ModelPrice | undefined {
  // Every traced model call asks, with a handful of ids: remember the answers
  // (per overrides object; the table is a constant).
  let cache = overrides === undefined ? builtInCache : overrideCaches.get(overrides);
  if (cache === undefined) {
    cache = new Map();
    overrideCaches.set(overrides as PriceOverrides, cache);
  }
  const known = cache.get(model);
  if (known !== undefined) return known === NO_PRICE ? undefined : known;
  const price = searchPrice(model, overrides);
  if (cache.size >= MAX_CACHED_MODELS) cache.clear();
  cache.set(model, price ?? NO_PRICE);
  return price;
}

const NO_PRICE = Symbol('no price');
/** Model ids remembered per price table; past it the cache starts over (ids are few in practice). */
const MAX_CACHED_MODELS = 1_000;
const builtInCache = new Map<string, ModelPrice | typeof NO_PRICE>();
const overrideCaches = new WeakMap<PriceOverrides, Map<string, ModelPrice | typeof NO_PRICE>>();

function searchPrice(model: string, overrides: PriceOverrides | undefined): ModelPrice | undefined {
  const exact = lookup(model, overrides);
  if (exact !== undefined) return exact;
  const id = model.toLowerCase().replace(PROVIDER_PREFIX, '');
  return lookup(id, overrides) ?? longestPrefix(id, overrides) ?? longestPrefix(id, undefined);
}

function lookup(id: string, overrides: PriceOverrides | undefined): ModelPrice | undefined {
  if (overrides !== undefined && Object.hasOwn(overrides, id)) return overrides[id];
  return Object.hasOwn(PRICE_TABLE, id) ? PRICE_TABLE[id] : undefined;
}

function longestPrefix(id: string, overrides: PriceOverrides | undefined): ModelPrice | undefined {
  const table = overrides ?? PRICE_TABLE;
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (id.length > key.length && id.startsWith(key) && '-@:'.includes(id.charAt(key.length))) {
      if (best === undefined || key.length > best.length) best = key;
    }
  }
  return best === undefined ? undefined : table[best];
}

/**
 * What `usage` costs at `price`, in US dollars. `inputTokens` counts every
 * input token, cached reads and cache writes included (as OpenAI reports it
 * and as the OpenTelemetry GenAI conventions define it); `outputTokens`
 * includes reasoning tokens. So uncached input = input − cached − written,
 * and reasoning is billed apart only when the price names it.
 */
export function costOfUsage(usage: ModelUsage, price: ModelPrice): number {
  const cached = usage.cachedInputTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const plainInput = Math.max(0, usage.inputTokens - cached - written);
  const reasoning =
    price.reasoning === undefined ? 0 : Math.min(usage.reasoningTokens ?? 0, usage.outputTokens);
  const dollars =
    plainInput * price.input +
    cached * (price.cachedInput ?? price.input) +
    written * (price.cacheWrite ?? price.input) +
    (usage.outputTokens - reasoning) * price.output +
    reasoning * (price.reasoning ?? price.output);
  return roundUsd(dollars / 1_000_000);
}

/** Rounds away float noise (0.1 + 0.2) while keeping far below a micro-cent. */
export function roundUsd(dollars: number): number {
  return Math.round(dollars * 1e12) / 1e12;
}

/**
 * Sets `costUsd` on each priced model's entry of one call's OWN usage (in
 * place; unpriced models get no field, never 0) and returns `usage`. Price a
 * call's own usage before rolling its children's into it: children arrive
 * already priced, and `addUsage` sums `costUsd` like the token counts.
 */
export function priceUsage<T extends Record<string, ModelUsage> | undefined>(
  usage: T,
  overrides?: PriceOverrides,
): T {
  if (usage === undefined) return usage;
  for (const model of Object.keys(usage)) {
    const entry = usage[model] as ModelUsage;
    const price = findModelPrice(model, overrides);
    if (price !== undefined) entry.costUsd = costOfUsage(entry, price);
  }
  return usage;
}

/**
 * The cost of a usage map: the sum of its priced entries, or `undefined`
 * when none is priced. `summary.costUsd` is this over `summary.usage`, which
 * already holds the call and its descendants.
 */
export function totalCostUsd(usage: Record<string, ModelUsage> | undefined): number | undefined {
  if (usage === undefined) return undefined;
  let total: number | undefined;
  for (const model of Object.keys(usage)) {
    const cost = (usage[model] as ModelUsage).costUsd;
    if (cost !== undefined) total = (total ?? 0) + cost;
  }
  return total === undefined ? undefined : roundUsd(total);
}
