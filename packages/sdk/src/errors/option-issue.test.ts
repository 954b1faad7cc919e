import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../client/options.js';
import { parseEvaluateOptions } from '../eval/evaluation-options.js';
import { parseWrapOptions } from '../integrations/wrap-options.js';
import { WeftSpanProcessor } from '../otel/weft-span-processor.js';
import { resolveOutboxOptions } from '../outbox/outbox-options.js';
import { withFlush } from '../serverless/with-flush.js';
import { ApiClient } from '../transport/api-client.js';
import { resolveSanitizeOptions } from '../values/sanitize-options.js';

const thrown = (fn: () => unknown): { code?: string; message: string } => {
  try {
    fn();
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error('expected a throw');
};

const noFlush = { flush: async () => ({ flushed: true, pending: 0, durable: 0, dropped: 0 }) } as never;

describe('option errors', () => {
  // Each entry point, a bad value of one of its options, and the option's name.
  const cases: [string, () => unknown, string, string][] = [
    ['weft.init', () => resolveOptions({ project: 'p', maxBatchBytes: -1 }, {}), 'Weft', 'maxBatchBytes'],
    [
      'ApiClient',
      () => new ApiClient({ url: 'http://127.0.0.1:1', requestTimeoutMs: -1 }),
      'ApiClient',
      'requestTimeoutMs',
    ],
    ['withFlush', () => withFlush(() => 1, { timeoutMs: -1 }, noFlush), 'withFlush', 'timeoutMs'],
    [
      'WeftSpanProcessor',
      () => new WeftSpanProcessor({ flushTimeoutMs: -1 }),
      'WeftSpanProcessor',
      'flushTimeoutMs',
    ],
    ['wrapOpenAI', () => parseWrapOptions('wrapOpenAI', { attributes: -1 }), 'wrapOpenAI', 'attributes'],
    ['Outbox.open', () => resolveOutboxOptions({ dir: '/tmp/x', maxBytes: -1 }), 'outbox', 'maxBytes'],
    ['sanitize', () => resolveSanitizeOptions({ maxDepth: -1 }), 'value', 'maxDepth'],
    [
      'evaluate',
      () => parseEvaluateOptions(() => 1, { concurrency: -1 } as never),
      'evaluate',
      'concurrency',
    ],
  ];

  it.each(cases)(
    '%s words a bad option as "Invalid <owner> options: `<option>` <problem>, got <value>."',
    (_, fn, owner, option) => {
      const error = thrown(fn);
      expect(error.code).toBe('WEFT_INVALID_OPTIONS');
      expect(error.message).toMatch(new RegExp(`^Invalid ${owner} options: \`${option}\` .+, got -1\\.$`));
    },
  );

  it('names unknown options by their key, whatever the entry point', () => {
    expect(thrown(() => resolveOutboxOptions({ dir: '/tmp/x', maxbytes: 1 } as never)).message).toBe(
      'Invalid outbox options: unknown option `maxbytes`.',
    );
    expect(thrown(() => withFlush(() => 1, { timeout: 1 } as never, noFlush)).message).toBe(
      'Invalid withFlush options: unknown option `timeout`.',
    );
  });
});
