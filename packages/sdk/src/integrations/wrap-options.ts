import { z } from 'zod';
import type { WeftClient } from '../client/index.js';
import { firstOptionIssue, InvalidOptionsError } from '../errors/index.js';

/** Options of `wrapOpenAI` and `wrapAnthropic`. */
export interface WrapClientOptions {
  /** The Weft client that records the calls. @default the default client (`weft.init`), looked up at call time */
  weft?: WeftClient;
  /** Attributes recorded on every call of this client (merged over `withAttributes` ones). */
  attributes?: Record<string, unknown>;
}

const schema = z.strictObject({
  weft: z
    .custom<WeftClient>(
      (v) => typeof v === 'object' && v !== null && typeof (v as { op?: unknown }).op === 'function',
      'must be a Weft client (the value weft.init() returns)',
    )
    .optional(),
  attributes: z.record(z.string(), z.unknown()).optional(),
});

/** Validates the options of a client wrapper; throws {@link InvalidOptionsError} naming the bad one. */
export function parseWrapOptions(wrapper: string, options: unknown): WrapClientOptions {
  const parsed = schema.safeParse(options ?? {});
  if (parsed.success) return parsed.data;
  const { option, detail } = firstOptionIssue(parsed.error, options ?? {});
  throw new InvalidOptionsError(option, `Invalid ${wrapper} options: ${detail}.`);
}
