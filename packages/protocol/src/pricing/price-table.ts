/**
 * Prices of one model in US dollars per million tokens. `input` and `output`
 * are required; the others fall back as providers bill them when absent:
 * cached input and cache writes at the input price, reasoning at the output
 * price (OpenAI and Google bill reasoning tokens as output tokens).
 */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  readonly cachedInput?: number | undefined;
  readonly cacheWrite?: number | undefined;
  readonly reasoning?: number | undefined;
}

/** When the table below was taken, and from where. */
export const PRICE_TABLE_TAKEN_ON = '2025-10-01';
export const PRICE_TABLE_SOURCE =
  "the providers' public pricing pages (OpenAI API pricing, Anthropic pricing, Google Gemini API pricing), standard tier, no batch discount";

/**
 * The built-in price table: current OpenAI, Anthropic and Google models,
 * USD per million tokens. Keys are model ids as the provider's API reports
 * them; dated snapshots (`gpt-4o-2024-08-06`, `claude-sonnet-4-20250514`)
 * find their family by prefix (see `findModelPrice`). Google's prices are
 * the ≤200k-token-prompt tier. Users add or override entries with
 * `weft.init({ prices })`.
 */
export const PRICE_TABLE: Readonly<Record<string, ModelPrice>> = {
  // OpenAI: reasoning tokens are billed as output tokens.
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  'gpt-5-chat-latest': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4o-2024-05-13': { input: 5, output: 15 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  'gpt-4-turbo': { input: 10, output: 30 },
  'gpt-4': { input: 30, output: 60 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  o1: { input: 15, cachedInput: 7.5, output: 60 },
  'o1-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
  'o1-pro': { input: 150, output: 600 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
  'o3-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
  'o3-pro': { input: 20, output: 80 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
  'text-embedding-3-small': { input: 0.02, output: 0 },
  'text-embedding-3-large': { input: 0.13, output: 0 },
  'text-embedding-ada-002': { input: 0.1, output: 0 },
  // Anthropic: 5-minute cache writes at 1.25× input, cache reads at 0.1× input.
  'claude-opus-4-1': { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 },
  'claude-opus-4': { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 },
  'claude-sonnet-4-5': { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
  'claude-sonnet-4': { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
  'claude-haiku-4-5': { input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 5 },
  'claude-3-7-sonnet': { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
  'claude-3-5-sonnet': { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
  'claude-3-5-haiku': { input: 0.8, cachedInput: 0.08, cacheWrite: 1, output: 4 },
  'claude-3-opus': { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 },
  'claude-3-haiku': { input: 0.25, cachedInput: 0.03, cacheWrite: 0.3, output: 1.25 },
  // Google Gemini (≤200k-token prompts): thinking tokens are billed as output.
  'gemini-2.5-pro': { input: 1.25, cachedInput: 0.31, output: 10 },
  'gemini-2.5-flash': { input: 0.3, cachedInput: 0.075, output: 2.5 },
  'gemini-2.5-flash-lite': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gemini-2.0-flash': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gemini-2.0-flash-lite': { input: 0.075, output: 0.3 },
  'gemini-1.5-pro': { input: 1.25, cachedInput: 0.3125, output: 5 },
  'gemini-1.5-flash': { input: 0.075, cachedInput: 0.01875, output: 0.3 },
  'text-embedding-004': { input: 0, output: 0 },
};
