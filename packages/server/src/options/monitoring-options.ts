import { z } from 'zod';

/**
 * How the server runs monitoring: its scheduler (alert evaluation, webhook
 * deliveries, LLM-judge evaluators) and the links it puts in messages.
 */
export const monitoringOptions = z.strictObject({
  /**
   * Run the scheduler in this process. With several replicas on one
   * ClickHouse database, run it on exactly one (docs/monitoring.md).
   * @default true
   */
  scheduler: z.boolean().default(true),
  /**
   * How often the scheduler looks for work.
   * @default 15_000
   */
  tickMs: z.number().int().positive().default(15_000),
  /**
   * How often a threshold alert is evaluated (change-detection alerts are
   * evaluated once per closed window).
   * @default 60_000
   */
  alertEveryMs: z.number().int().positive().default(60_000),
  /**
   * The server's address as people open it, for the links in alert
   * messages (`https://weft.example.com`).
   * @default the address it listens on
   */
  publicUrl: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * How long one webhook request may take.
   * @default 10_000
   */
  webhookTimeoutMs: z.number().int().positive().default(10_000),
  /**
   * Delay before the first retry of a failed delivery; doubles each time
   * (with ±20% jitter), at most 5 minutes, or what `Retry-After` asks.
   * @default 1_000
   */
  webhookRetryMs: z.number().int().positive().default(1_000),
  /**
   * Attempts of one delivery before it is given up (recorded as failed).
   * @default 8
   */
  webhookAttempts: z.number().int().min(1).max(50).default(8),
  /**
   * The LLM judge of evaluators with an `llm` scorer: an OpenAI-compatible
   * API (`baseUrl` like `https://api.openai.com/v1`) or Anthropic's. The key
   * stays in the server's memory: rules name a model only, and neither the
   * database nor any response holds it. Without this option the server reads
   * `WEFT_JUDGE_PROVIDER` (`openai` or `anthropic`), `WEFT_JUDGE_BASE_URL`
   * and `WEFT_JUDGE_API_KEY`; with neither, LLM evaluators pause with
   * "no judge configured".
   */
  judge: z
    .strictObject({
      provider: z.enum(['openai', 'anthropic']),
      baseUrl: z.url({ protocol: /^https?$/ }),
      apiKey: z.string().min(1),
      /** @default 60_000 */
      timeoutMs: z.number().int().positive().default(60_000),
    })
    .optional(),
  /**
   * The clock the scheduler reads (for tests that move time).
   * @default Date.now
   */
  now: z.custom<() => number>((value) => typeof value === 'function', 'must be a function').optional(),
});
export type MonitoringOptions = z.input<typeof monitoringOptions>;
export type MonitoringOptionsParsed = z.output<typeof monitoringOptions>;
