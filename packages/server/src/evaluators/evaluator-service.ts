import {
  type EvaluatorActivity,
  type EvaluatorPullResponse,
  type EvaluatorRule,
  type EvaluatorStatus,
  evaluatorRule,
  evaluatorResults,
  type EvaluatorResults,
  type FeedbackItem,
} from '@weft/protocol';
import { InvalidRequestError, NotFoundError } from '../errors/index.js';
import type { Storage } from '../storage/index.js';
import { evaluatorFeedbackId } from './evaluator-feedback-id.js';
import { advance, decodePosition, encodePosition, pullCalls } from './evaluator-pull.js';
import {
  type ErrorEntry,
  type EvaluatorState,
  EvaluatorStore,
  freshState,
  type ResultEntry,
  type StoredEvaluator,
  utcDay,
} from './evaluator-store.js';

/**
 * Online evaluators: rules, the walk of their calls (pull a page, store its
 * results, then move the cursor), backfills, and what they have done. The
 * code scorers of `weft.monitor` drive the walk over HTTP; the server's
 * judge runner drives it for LLM rules.
 */
export class EvaluatorService {
  readonly #storage: Storage;
  readonly #store: EvaluatorStore;
  readonly #now: () => number;

  constructor({ storage, now }: { storage: Storage; now: () => number }) {
    this.#storage = storage;
    this.#store = new EvaluatorStore(storage.monitoring);
    this.#now = now;
  }

  get store(): EvaluatorStore {
    return this.#store;
  }

  /**
   * Creates or replaces a rule. Its version grows when the filter, sample
   * rate or scorer changes; a new rule scores calls completed from now on.
   */
  async put(input: EvaluatorRule): Promise<EvaluatorStatus> {
    const rule = evaluatorRule.parse(input);
    const stored = (await this.#store.rule(rule.project, rule.name))?.value;
    const fingerprint = JSON.stringify({
      filter: rule.filter,
      sampleRate: rule.sampleRate,
      scorer: rule.scorer,
    });
    const version =
      stored === undefined ? 1 : stored.fingerprint === fingerprint ? stored.version : stored.version + 1;
    await this.#store.putRule({ rule, version, fingerprint });
    if (stored === undefined) {
      const live = await this.#storage.monitoring.completionsEnd(rule.project);
      await this.#store.updateState(rule.project, rule.name, () => ({
        ...freshState(),
        ...(live === undefined ? {} : { live }),
      }));
    }
    return this.status(rule.project, rule.name);
  }

  async delete(project: string, name: string): Promise<boolean> {
    return this.#store.deleteRule(project, name);
  }

  async list(project: string): Promise<EvaluatorStatus[]> {
    const rules = await this.#store.rules(project);
    return Promise.all(rules.map((doc) => this.status(project, doc.key)));
  }

  async status(project: string, name: string): Promise<EvaluatorStatus> {
    const stored = await this.#required(project, name);
    const state = (await this.#store.state(project, name))?.value ?? freshState();
    const backfill = state.backfill;
    return {
      rule: stored.rule,
      version: stored.version,
      scored: state.scored,
      failed: state.failed,
      costTodayUsd: await this.#store.spent(project, name, utcDay(this.#now())),
      costUsd: state.costUsd,
      paused: state.paused,
      lastRunAt: state.lastRunAt,
      backfill:
        backfill === null
          ? null
          : {
              from: backfill.from,
              to: backfill.to,
              progress: backfill.done
                ? 1
                : Math.min(
                    1,
                    Math.max(0, (backfill.walkedTo - backfill.from) / (backfill.to - backfill.from)),
                  ),
              done: backfill.done,
            },
    };
  }

  async activity(project: string, name: string, limit: number): Promise<EvaluatorActivity> {
    await this.#required(project, name);
    return this.#store.recent(project, name, limit);
  }

  /** The next calls to score and the cursor to hand back with their results. */
  async pull(project: string, name: string, limit: number): Promise<EvaluatorPullResponse> {
    const stored = await this.#required(project, name);
    const state = (await this.#store.state(project, name))?.value ?? freshState();
    const { calls, position, idle } = await pullCalls(this.#storage, stored.rule, state, limit);
    return { calls, cursor: encodePosition(position), version: stored.version, idle };
  }

  /**
   * Stores results (idempotently: feedback ids derive from rule, version,
   * call and score) and errors, then moves the cursor. Returns how many
   * feedback items were new.
   */
  async submit(
    input: EvaluatorResults,
    costs: ReadonlyMap<string, number> = new Map(),
  ): Promise<{ stored: number }> {
    const body = evaluatorResults.parse(input);
    const position = decodePosition(body.cursor);
    await this.#required(body.project, body.name);
    const now = this.#now();
    const items: FeedbackItem[] = [];
    const results: ResultEntry[] = [];
    const errors: ErrorEntry[] = [];
    for (const result of body.results) {
      if (
        result.error !== undefined ||
        result.scores === undefined ||
        Object.keys(result.scores).length === 0
      ) {
        errors.push({ callId: result.callId, message: result.error ?? 'the scorer gave no score' });
        continue;
      }
      for (const [score, value] of Object.entries(result.scores)) {
        items.push({
          type: 'feedback',
          id: evaluatorFeedbackId(body.project, body.name, body.version, result.callId, score),
          callId: result.callId,
          name: score,
          value,
          source: `evaluator:${body.name}`,
          createdAt: now,
          ...(result.comment === undefined ? {} : { comment: result.comment }),
        });
      }
      const cost = costs.get(result.callId);
      results.push({
        callId: result.callId,
        version: body.version,
        scores: result.scores,
        ...(cost === undefined ? {} : { costUsd: cost }),
      });
    }
    const { stored } =
      items.length === 0 ? { stored: 0 } : await this.#storage.putFeedback(body.project, items);
    await this.#store.logResults(body.project, body.name, now, results);
    await this.#store.logErrors(body.project, body.name, now, errors);
    // Counted by what was new: a page scored again after a crash adds nothing.
    const perCall = results.length === 0 ? 1 : items.length / results.length;
    await this.#store.updateState(body.project, body.name, (state) => ({
      ...advance(state, position),
      scored: state.scored + Math.round(stored / perCall),
      failed: state.failed + errors.length,
      lastRunAt: now,
    }));
    return { stored };
  }

  /** Starts (or restarts) scoring the rule's calls of `[from, to)`, oldest first, before newer ones. */
  async backfill(project: string, name: string, from: number, to: number): Promise<EvaluatorStatus> {
    await this.#required(project, name);
    if (to <= from) throw new InvalidRequestError([{ path: 'to', message: 'must be after `from`' }], 'body');
    await this.#store.updateState(project, name, (state) => ({
      ...state,
      backfill: { from, to, cursor: null, walkedTo: from, done: false },
    }));
    return this.status(project, name);
  }

  /** Records why a rule's runner paused (or `null` once it runs again), and what it spent. */
  async note(
    project: string,
    name: string,
    change: (state: EvaluatorState) => EvaluatorState,
  ): Promise<void> {
    await this.#store.updateState(project, name, change);
  }

  async #required(project: string, name: string): Promise<StoredEvaluator> {
    const stored = (await this.#store.rule(project, name))?.value;
    if (stored === undefined) throw new NotFoundError(`No evaluator ${name} in project ${project}.`);
    return stored;
  }
}
