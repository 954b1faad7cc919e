import { describeValue } from '../../datasets/index.js';
import { InvalidClientError } from '../../errors/index.js';
import { traceMethod } from '../traced-method.js';
import { parseWrapOptions, type WrapClientOptions } from '../wrap-options.js';
import { ChatCompletionAccumulator } from './chat-completion-accumulator.js';
import { embeddingsOutput } from './embeddings-output.js';
import { ResponseStreamAccumulator } from './response-stream-accumulator.js';
import { addsStreamUsage, withStreamUsage } from './stream-usage-request.js';

/** The parts of an `openai` client this wrapper reads. */
interface OpenAILike {
  chat?: { completions?: object };
  responses?: object;
  embeddings?: object;
}

function isOpenAIClient(value: unknown): value is OpenAILike {
  if (typeof value !== 'object' || value === null) return false;
  const completions = (value as OpenAILike).chat?.completions as { create?: unknown } | undefined;
  return typeof completions?.create === 'function';
}

/**
 * Traces an `openai` client: `chat.completions.create` (streamed or not;
 * `chat.completions.parse()`, `.stream()` and `runTools()` go through it),
 * `responses.create` (and `responses.stream()`, `responses.parse()`) and
 * `embeddings.create`, each call an op named after its endpoint
 * (`openai.chat.completions.create`…) under the caller's current call.
 * Returns the same client: same class, same methods, same values and errors.
 * Wrapping it again changes nothing.
 *
 * @example
 * const openai = wrapOpenAI(new OpenAI());
 * @throws {InvalidClientError} when `client` is not an OpenAI client
 */
export function wrapOpenAI<T extends object>(client: T, options?: WrapClientOptions): T {
  if (!isOpenAIClient(client))
    throw new InvalidClientError(
      'wrapOpenAI',
      'an OpenAI client (new OpenAI() from the `openai` package)',
      describeValue(client),
    );
  const opts = parseWrapOptions('wrapOpenAI', options);
  traceMethod(
    client.chat?.completions,
    'create',
    {
      name: 'openai.chat.completions.create',
      prepareRequest: withStreamUsage,
      streamAccumulator: (args) => new ChatCompletionAccumulator({ hideUsage: addsStreamUsage(args[0]) }),
    },
    opts,
  );
  traceMethod(
    client.responses,
    'create',
    { name: 'openai.responses.create', streamAccumulator: () => new ResponseStreamAccumulator() },
    opts,
  );
  traceMethod(
    client.embeddings,
    'create',
    { name: 'openai.embeddings.create', recordOutput: embeddingsOutput },
    opts,
  );
  return client;
}
