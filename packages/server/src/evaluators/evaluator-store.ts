import type { EvaluatorRuleParsed, FeedbackValue } from '@weft/protocol';
import type { MonitorStorage, StateDocument } from '../storage/index.js';

/** A rule as stored: with its version, which grows when what it scores changes (`fingerprint`). */
export interface StoredEvaluator {
  rule: EvaluatorRuleParsed;
  version: number;
  fingerprint: string;
}

/** Where an evaluator is in its walk of calls, and what it has done. */
export interface EvaluatorState {
  /** Cursor in the list of completed calls (`undefined`: from the rule's creation on). */
  live?: string;
  backfill: { from: number; to: number; cursor: string | null; walkedTo: number; done: boolean } | null;
  scored: number;
  failed: number;
  costUsd: number;
  paused: string | null;
  lastRunAt: number | null;
}

export interface ResultEntry {
  callId: string;
  version: number;
  scores: Record<string, FeedbackValue>;
  costUsd?: number;
}

export interface ErrorEntry {
  callId: string | null;
  message: string;
}

const RULE = 'evaluator-rule';
const STATE = 'evaluator-state';
const SPEND = 'evaluator-spend';
const RESULTS = 'evaluator-result';
const ERRORS = 'evaluator-error';

export function freshState(): EvaluatorState {
  return { backfill: null, scored: 0, failed: 0, costUsd: 0, paused: null, lastRunAt: null };
}

/** The UTC day of a time, `2026-11-02`: what a daily cost cap counts by. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Evaluators' documents and logs in the monitoring storage. */
export class EvaluatorStore {
  readonly #storage: MonitorStorage;

  constructor(storage: MonitorStorage) {
    this.#storage = storage;
  }

  rule(project: string, name: string): Promise<StateDocument<StoredEvaluator> | undefined> {
    return this.#storage.readDocument<StoredEvaluator>(project, RULE, name);
  }

  rules(project: string | undefined): Promise<StateDocument<StoredEvaluator>[]> {
    return this.#storage.listDocuments<StoredEvaluator>(RULE, project);
  }

  async putRule(stored: StoredEvaluator): Promise<void> {
    await this.#storage.writeDocument(stored.rule.project, RULE, stored.rule.name, stored);
  }

  async deleteRule(project: string, name: string): Promise<boolean> {
    await this.#storage.deleteDocument(project, STATE, name);
    return this.#storage.deleteDocument(project, RULE, name);
  }

  async state(project: string, name: string): Promise<StateDocument<EvaluatorState> | undefined> {
    return this.#storage.readDocument<EvaluatorState>(project, STATE, name);
  }

  /**
   * Changes a rule's state with `change` applied to what is stored, again if
   * another writer got there first (compare-and-set on the version).
   */
  async updateState(
    project: string,
    name: string,
    change: (state: EvaluatorState) => EvaluatorState,
  ): Promise<EvaluatorState> {
    for (;;) {
      const stored = await this.state(project, name);
      const next = change(stored?.value ?? freshState());
      const written = await this.#storage.writeDocument(project, STATE, name, next, stored?.version ?? 0);
      if (written !== undefined) return next;
    }
  }

  /** What the rule's judge spent on a UTC day. */
  async spent(project: string, name: string, day: string): Promise<number> {
    return (
      (await this.#storage.readDocument<{ costUsd: number }>(project, SPEND, `${name}/${day}`))?.value
        .costUsd ?? 0
    );
  }

  async addSpend(project: string, name: string, day: string, costUsd: number): Promise<void> {
    for (;;) {
      const stored = await this.#storage.readDocument<{ costUsd: number }>(project, SPEND, `${name}/${day}`);
      const next = { costUsd: (stored?.value.costUsd ?? 0) + costUsd };
      if (
        (await this.#storage.writeDocument(project, SPEND, `${name}/${day}`, next, stored?.version ?? 0)) !==
        undefined
      )
        return;
    }
  }

  async logResults(
    project: string,
    name: string,
    at: number,
    entries: readonly ResultEntry[],
  ): Promise<void> {
    if (entries.length > 0)
      await this.#storage.appendLog(
        project,
        RESULTS,
        name,
        entries.map((value) => ({ at, value })),
      );
  }

  async logErrors(project: string, name: string, at: number, entries: readonly ErrorEntry[]): Promise<void> {
    if (entries.length > 0)
      await this.#storage.appendLog(
        project,
        ERRORS,
        name,
        entries.map((value) => ({ at, value })),
      );
  }

  async recent(project: string, name: string, limit: number) {
    const [results, errors] = await Promise.all([
      this.#storage.readLog<ResultEntry>(project, RESULTS, name, { limit }),
      this.#storage.readLog<ErrorEntry>(project, ERRORS, name, { limit }),
    ]);
    return {
      results: results.map(({ at, value }) => ({ at, ...value })),
      errors: errors.map(({ at, value }) => ({ at, ...value })),
    };
  }
}
