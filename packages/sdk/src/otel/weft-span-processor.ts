import { z } from 'zod';
import { getDefaultClient, type WeftClient } from '../client/index.js';
import { warnOnce } from '../diagnostics/index.js';
import { firstOptionIssue, InvalidOptionsError } from '../errors/index.js';
import type { FlushResult } from '../lifecycle/index.js';
import type { OtelContext } from '../context/index.js';
import type { EndedSpan } from '../op/index.js';
import { SpanFlushIncompleteError } from './span-flush-incomplete-error.js';

/** W3C `traceFlags` bit: sampled. */
const SAMPLED = 1;

const optionsSchema = z
  .object({
    client: z
      .custom<WeftClient>(
        (value) => typeof value === 'object' && value !== null && 'tracer' in value,
        'a WeftClient (from weft.init)',
      )
      .optional(),
    flushTimeoutMs: z.number().int().nonnegative().optional(),
  })
  .strict();

/** Options of {@link WeftSpanProcessor}. */
export interface WeftSpanProcessorOptions {
  /** The Weft client spans are recorded by. @default the default client (the last `weft.init`) when each span ends */
  client?: WeftClient;
  /** How long `forceFlush()` and `shutdown()` wait for the server before they reject. @default 30000 (OTel's export timeout) */
  flushTimeoutMs?: number;
}

/**
 * An OpenTelemetry `SpanProcessor` that records every ended, sampled span as
 * a Weft call through Weft's own pipeline — deferred off the caller's turn,
 * batched, retried, kept in the durable outbox while the server is away, and
 * covered by `weft.flush()` — instead of an exporter's queue that drops spans
 * when full.
 *
 * ```ts
 * const provider = new NodeTracerProvider({ spanProcessors: [new WeftSpanProcessor()] });
 * provider.register();
 * ```
 *
 * `onEnd` costs the caller one object and a queue push; the span is mapped
 * to a call (GenAI messages, usage, cost) later, in the pipeline's pool.
 */
export class WeftSpanProcessor {
  readonly #client: WeftClient | undefined;
  readonly #flushTimeoutMs: number;
  #shutdown: Promise<void> | undefined;

  constructor(options: WeftSpanProcessorOptions = {}) {
    const parsed = optionsSchema.safeParse(options);
    if (!parsed.success) {
      const { option, detail } = firstOptionIssue(parsed.error, options);
      throw new InvalidOptionsError(option, `Invalid WeftSpanProcessor options: ${detail}.`);
    }
    this.#client = options.client;
    this.#flushTimeoutMs = options.flushTimeoutMs ?? 30_000;
  }

  /**
   * Remembers where the span started (the Weft call or span it runs under),
   * so its usage rolls up into the Weft op that called it when it ends.
   */
  onStart(span: EndedSpan, parentContext?: OtelContext): void {
    if (this.#shutdown !== undefined) return;
    (this.#client ?? getDefaultClient())?.tracer?.spanStarted(span, parentContext);
  }

  /** Keeps the ended span by reference and queues it; the mapping runs in the pipeline's pool. */
  onEnd(span: EndedSpan): void {
    if (this.#shutdown !== undefined) return;
    if ((span.spanContext().traceFlags & SAMPLED) === 0) return;
    const tracer = (this.#client ?? getDefaultClient())?.tracer;
    if (tracer === undefined) {
      warnOnce(
        'WEFT_OTEL_NO_CLIENT',
        'WeftSpanProcessor: spans are not recorded: no active Weft client (weft.init() was not called, or the client was shut down). This warning is shown once.',
      );
      return;
    }
    tracer.submitSpan(span);
  }

  /**
   * Resolves when every span that ended before it is acknowledged by the
   * server, or at `flushTimeoutMs` durably in the outbox (it is the client's
   * delivery-first `flush()`, which covers them). Rejects with
   * `SpanFlushIncompleteError` when some could not be delivered nor kept, so
   * the caller knows.
   */
  async forceFlush(): Promise<void> {
    if (this.#shutdown !== undefined) return;
    await this.#flush();
  }

  /**
   * Flushes like `forceFlush()`, then ignores spans that end later (the OTel
   * spec: after shutdown, `onEnd` and `forceFlush` are no-ops). The Weft
   * client stays open — ops and other processors may still use it.
   * Idempotent: a second call joins the first.
   */
  shutdown(): Promise<void> {
    this.#shutdown ??= this.#flush();
    return this.#shutdown;
  }

  async #flush(): Promise<void> {
    const client = this.#client ?? getDefaultClient();
    if (client === undefined || client.closed) return;
    const result: FlushResult = await client.flush({ timeoutMs: this.#flushTimeoutMs });
    if (result.failed > 0 || result.pending > 0) throw new SpanFlushIncompleteError(result);
  }
}
