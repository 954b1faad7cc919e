import { randomUUID } from 'node:crypto';
import {
  type Call,
  type CallComplete,
  costOfUsage,
  type EvaluatorResult,
  type EvaluatorRuleParsed,
  findModelPrice,
  type ModelUsage,
} from '@weft/protocol';
import type { Storage } from '../../storage/index.js';
import { evaluatorFeedbackId } from '../evaluator-feedback-id.js';
import { EVALUATOR_OP_PREFIX, encodePosition } from '../evaluator-pull.js';
import type { EvaluatorService } from '../evaluator-service.js';
import { type StoredEvaluator, utcDay } from '../evaluator-store.js';
import { readVerdict } from './judge-answer.js';
import { askJudge, type JudgeEndpoint } from './judge-client.js';
import { judgePrompt } from './judge-prompt.js';
import { RequestPacer } from './request-pacer.js';

type LlmRule = EvaluatorRuleParsed & { scorer: { type: 'llm' } };

/** Wait after a 429 or an unreachable judge when it says nothing (doubles per failure in a row, at most 10 min). */
const RETRY_MS = 5_000;
const MAX_RETRY_MS = 600_000;

/**
 * Runs the LLM-judge evaluators (a scheduler task): for each rule, pulls
 * the next calls, asks the judge about each (at most `concurrency` at once
 * and `requestsPerMinute`), traces each judge request as a call of op
 * `weft.evaluator.judge` with its usage and cost, and stores the scores.
 *
 * Nothing is lost and nothing sticks: a malformed answer is that call's
 * recorded error; a 429, a 5xx, a timeout or a refusal (bad key or model)
 * stores what was judged but keeps the cursor, and the rule waits
 * (Retry-After, or a doubling delay); the daily cost cap pauses the rule,
 * cursor kept, until the next UTC day. Calls judged before a stop carry
 * their scores and are not judged (paid for) again.
 */
export class JudgeRunner {
  readonly #storage: Storage;
  readonly #service: EvaluatorService;
  readonly #endpoint: JudgeEndpoint | undefined;
  readonly #pacers = new Map<string, RequestPacer>();
  /** Per rule: no request before this time (after a failure), and failures in a row. */
  readonly #backoff = new Map<string, { until: number; failures: number }>();

  constructor(options: { storage: Storage; service: EvaluatorService; endpoint: JudgeEndpoint | undefined }) {
    this.#storage = options.storage;
    this.#service = options.service;
    this.#endpoint = options.endpoint;
  }

  async runDue(now: number): Promise<void> {
    for (const doc of await this.#service.store.rules(undefined)) {
      const { rule } = doc.value;
      if (!rule.enabled || rule.scorer.type !== 'llm') continue;
      await this.#runRule(doc.value as StoredEvaluator & { rule: LlmRule }, now);
    }
  }

  async #runRule(stored: StoredEvaluator & { rule: LlmRule }, now: number): Promise<void> {
    const { rule } = stored;
    const key = `${rule.project}\u0000${rule.name}`;
    const pause = (reason: string | null) =>
      this.#service.note(rule.project, rule.name, (state) =>
        state.paused === reason ? state : { ...state, paused: reason, lastRunAt: now },
      );
    const endpoint = this.#endpoint;
    if (endpoint === undefined)
      return pause('no judge configured (monitoring.judge or WEFT_JUDGE_* on the server)');
    if ((this.#backoff.get(key)?.until ?? 0) > now) return;
    const day = utcDay(now);
    const cap = rule.scorer.dailyCostCapUsd;
    let spent = await this.#service.store.spent(rule.project, rule.name, day);
    if (spent >= cap)
      return pause(
        `daily cost cap reached: $${round(spent)} of $${cap} today (UTC); judging resumes tomorrow`,
      );

    const page = await this.#service.pull(rule.project, rule.name, rule.scorer.concurrency * 4);
    if (page.calls.length === 0) {
      if (!page.idle)
        await this.#service.submit({
          project: rule.project,
          name: rule.name,
          version: page.version,
          cursor: page.cursor,
          results: [],
        });
      return pause(null);
    }
    let pacer = this.#pacers.get(key);
    if (pacer?.perMinute !== rule.scorer.requestsPerMinute) {
      pacer = new RequestPacer(rule.scorer.requestsPerMinute);
      this.#pacers.set(key, pacer);
    }
    const results = new Map<string, EvaluatorResult>();
    const costs = new Map<string, number>();
    let stop: { reason: string; retryAfterMs?: number } | undefined;
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < page.calls.length && stop === undefined; i = next++) {
        const call = page.calls[i] as Call;
        const first = rule.scorer.scores[0]?.name ?? '';
        const done = evaluatorFeedbackId(rule.project, rule.name, page.version, call.id, first);
        if ((call.feedback ?? []).some((f) => f.id === done)) continue;
        if (spent >= cap) {
          stop = {
            reason: `daily cost cap reached: $${round(spent)} of $${cap} today (UTC); judging resumes tomorrow`,
          };
          return;
        }
        await pacer.take();
        const judged = await this.#judge(rule, stored.version, call, endpoint);
        if (judged.costUsd !== undefined) {
          spent += judged.costUsd;
          costs.set(call.id, judged.costUsd);
          await this.#service.store.addSpend(rule.project, rule.name, day, judged.costUsd);
        }
        if ('stop' in judged) {
          stop = judged.stop;
          return;
        }
        results.set(call.id, judged.result);
      }
    };
    await Promise.all(Array.from({ length: rule.scorer.concurrency }, lane));
    const judgedCost = [...costs.values()].reduce((a, b) => a + b, 0);
    // With a stop, the cursor stays: calls not judged yet are judged on a later run.
    await this.#service.submit(
      {
        project: rule.project,
        name: rule.name,
        version: page.version,
        cursor: stop === undefined ? page.cursor : encodePosition(null),
        results: [...results.values()],
      },
      costs,
    );
    await this.#service.note(rule.project, rule.name, (state) => ({
      ...state,
      costUsd: state.costUsd + judgedCost,
      paused: stop?.reason ?? null,
      lastRunAt: now,
    }));
    if (stop === undefined) {
      this.#backoff.delete(key);
    } else if (!stop.reason.startsWith('daily cost cap')) {
      const failures = (this.#backoff.get(key)?.failures ?? 0) + 1;
      const wait = stop.retryAfterMs ?? Math.min(MAX_RETRY_MS, RETRY_MS * 2 ** (failures - 1));
      this.#backoff.set(key, { until: now + wait, failures });
    }
  }

  /** Asks the judge about one call and traces the request; a retryable failure or a refusal stops the run. */
  async #judge(
    rule: LlmRule,
    version: number,
    call: Call,
    endpoint: JudgeEndpoint,
  ): Promise<
    | { result: EvaluatorResult; costUsd?: number }
    | { stop: { reason: string; retryAfterMs?: number }; costUsd?: number }
  > {
    const prompt = judgePrompt(rule.scorer.prompt, call, rule.scorer.scores);
    const startedAt = Date.now();
    const reply = await askJudge(endpoint, {
      model: rule.scorer.model,
      prompt,
      maxTokens: rule.scorer.maxTokens,
      temperature: rule.scorer.temperature,
    });
    const usage: ModelUsage | undefined = reply.ok
      ? {
          requests: 1,
          inputTokens: reply.inputTokens,
          outputTokens: reply.outputTokens,
          totalTokens: reply.inputTokens + reply.outputTokens,
        }
      : undefined;
    const price = findModelPrice(rule.scorer.model);
    const costUsd = usage !== undefined && price !== undefined ? costOfUsage(usage, price) : undefined;
    if (usage !== undefined && costUsd !== undefined) usage.costUsd = costUsd;
    await this.#trace(
      rule,
      version,
      call,
      prompt,
      startedAt,
      reply.ok ? reply.text : undefined,
      reply.ok ? undefined : reply.error,
      usage,
      costUsd,
    );
    if (!reply.ok) {
      const reason = reply.retryable
        ? `the judge failed, retrying later: ${reply.error}`
        : `the judge refused the request: ${reply.error}`;
      return {
        stop: { reason, ...(reply.retryAfterMs === undefined ? {} : { retryAfterMs: reply.retryAfterMs }) },
        ...(costUsd === undefined ? {} : { costUsd }),
      };
    }
    const verdict = readVerdict(reply.text, rule.scorer.scores);
    const result: EvaluatorResult = verdict.ok
      ? {
          callId: call.id,
          scores: verdict.scores,
          ...(verdict.reason === undefined ? {} : { comment: verdict.reason }),
        }
      : { callId: call.id, error: verdict.error };
    return { result, ...(costUsd === undefined ? {} : { costUsd }) };
  }

  /** The judge request as a call of its own, with its usage and cost (failed requests as errors). */
  async #trace(
    rule: LlmRule,
    version: number,
    call: Call,
    prompt: string,
    startedAt: number,
    output: string | undefined,
    error: string | undefined,
    usage: ModelUsage | undefined,
    costUsd: number | undefined,
  ): Promise<void> {
    const id = randomUUID();
    const endedAt = Date.now();
    const record: CallComplete = {
      type: 'complete',
      id,
      traceId: id,
      parentId: null,
      opName: `${EVALUATOR_OP_PREFIX}.judge`,
      displayName: `judge ${rule.name}`,
      startedAt,
      endedAt,
      inputs: { model: rule.scorer.model, prompt },
      attributes: {
        'weft.evaluator': rule.name,
        'weft.evaluator.version': version,
        'weft.evaluator.call': call.id,
      },
      ...(output === undefined ? {} : { output }),
      ...(error === undefined ? {} : { exception: { name: 'JudgeError', message: error } }),
      summary: {
        latencyMs: endedAt - startedAt,
        ...(usage === undefined ? {} : { usage: { [rule.scorer.model]: usage } }),
        ...(costUsd === undefined ? {} : { costUsd }),
      },
    };
    await this.#storage.ingestCalls(rule.project, [record]);
  }
}

function round(usd: number): string {
  return usd.toFixed(usd < 1 ? 4 : 2);
}
