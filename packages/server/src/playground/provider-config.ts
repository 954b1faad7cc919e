import { PRICE_TABLE } from '@weft/protocol';
import { z } from 'zod';

/**
 * A model provider the playground may call, as the server's operator
 * configures it. The key never leaves the server: the browser sees the id,
 * the kind and the models only.
 */
export const playgroundProviderConfig = z.object({
  /** How the UI names it (`openai`, `anthropic`, `local-vllm`). */
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1–64 letters, digits, ".", "_" or "-"'),
  /** `openai`: any OpenAI-compatible chat completions endpoint; `anthropic`: the Messages API. */
  kind: z.enum(['openai', 'anthropic']),
  /** `openai`: the base URL that `/chat/completions` is appended to (ending in `/v1`); `anthropic`: the one `/v1/messages` is appended to. */
  baseUrl: z.url({ protocol: /^https?$/ }),
  apiKey: z.string().min(1),
  /** Models to offer first; the user may type any other. @default the priced models of its kind */
  models: z.array(z.string().min(1)).optional(),
});
export type PlaygroundProviderConfig = z.input<typeof playgroundProviderConfig>;

/** The environment variables read by {@link providersFromEnv}. */
export interface ProviderEnv {
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
  ANTHROPIC_API_KEY?: string | undefined;
  ANTHROPIC_BASE_URL?: string | undefined;
}

/**
 * The providers the standard environment variables describe, as the
 * official clients read them: `OPENAI_API_KEY` (with `OPENAI_BASE_URL` for
 * any OpenAI-compatible server) and `ANTHROPIC_API_KEY` (with
 * `ANTHROPIC_BASE_URL`).
 */
export function providersFromEnv(env: ProviderEnv): PlaygroundProviderConfig[] {
  const providers: PlaygroundProviderConfig[] = [];
  if (env.OPENAI_API_KEY) {
    providers.push({
      id: 'openai',
      kind: 'openai',
      baseUrl: env.OPENAI_BASE_URL || 'https://api.openai.com/v1',
      apiKey: env.OPENAI_API_KEY,
    });
  }
  if (env.ANTHROPIC_API_KEY) {
    providers.push({
      id: 'anthropic',
      kind: 'anthropic',
      baseUrl: env.ANTHROPIC_BASE_URL || 'https://api.anthropic.com',
      apiKey: env.ANTHROPIC_API_KEY,
    });
  }
  return providers;
}

/** The models offered for a kind when the operator lists none: the price table's, so runs get a cost. */
export function defaultModels(kind: 'openai' | 'anthropic'): string[] {
  const prefix = kind === 'anthropic' ? /^claude-/ : /^(gpt-|o\d)/;
  return Object.keys(PRICE_TABLE).filter((model) => prefix.test(model));
}
