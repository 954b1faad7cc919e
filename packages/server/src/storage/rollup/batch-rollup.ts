import type { CallItem, CallSummary } from '@weft/protocol';
import { type CallFacts, mergeFacts, NO_FACTS, sameFacts, withSummary } from './call-facts.js';
import { type FeedbackFact, RollupDelta } from './rollup-delta.js';

/** A call's facts as an engine stores them. */
export interface StoredFacts {
  facts: CallFacts;
  /** Feedback arrived before the call's start and waits for it. */
  waiting: boolean;
  /** The call is in the completion list already. */
  completed: boolean;
}

/** What to write for one call whose facts changed. */
export interface FactsWrite extends StoredFacts {
  id: string;
  /** Append the call to the completion list now (it just got both halves). */
  complete: boolean;
}

/**
 * One batch's effect on the rollups, the same on every engine: from the
 * stored facts of its calls (`before`), the facts after its records (and
 * the summaries the OTLP roll-up rewrote) and the calls' feedback, the
 * rollup delta (each changed call's contribution after minus before) and
 * the facts to write. Feedback is needed only for the calls in `moved`
 * (their start changed and they may have some); read it, then call
 * {@link finish}.
 */
export class BatchRollup {
  readonly #before: ReadonlyMap<string, StoredFacts>;
  readonly #after = new Map<string, CallFacts>();
  /** Calls whose feedback moves with their start. */
  readonly moved: string[] = [];

  constructor(
    before: ReadonlyMap<string, StoredFacts>,
    items: readonly CallItem[],
    summaries: ReadonlyMap<string, CallSummary> = new Map(),
  ) {
    this.#before = before;
    const current = (id: string) => this.#after.get(id) ?? before.get(id)?.facts ?? NO_FACTS;
    for (const item of items) this.#after.set(item.id, mergeFacts(current(item.id), item));
    for (const [id, summary] of summaries) this.#after.set(id, withSummary(current(id), summary));
    for (const [id, facts] of this.#after) {
      const old = before.get(id);
      if (old !== undefined && (old.waiting || old.facts.start !== null) && !sameStart(old.facts, facts)) {
        this.moved.push(id);
      }
    }
  }

  /** The delta and the facts to write, given the feedback of the `moved` calls. */
  finish(feedback: ReadonlyMap<string, readonly FeedbackFact[]>): {
    delta: RollupDelta;
    writes: FactsWrite[];
  } {
    const delta = new RollupDelta();
    const writes: FactsWrite[] = [];
    for (const [id, facts] of this.#after) {
      const old = this.#before.get(id);
      const oldFacts = old?.facts ?? NO_FACTS;
      if (old !== undefined && sameFacts(oldFacts, facts)) continue;
      delta.addCall(oldFacts, -1);
      delta.addCall(facts, 1);
      const given = feedback.get(id);
      if (given !== undefined) {
        delta.addFeedback(oldFacts.start, given, -1);
        delta.addFeedback(facts.start, given, 1);
      }
      const wasCompleted = old?.completed === true;
      const completed = wasCompleted || (facts.start !== null && facts.end !== null);
      writes.push({
        id,
        facts,
        // Feedback waits for a start; once it is known, nothing waits.
        waiting: facts.start === null && old?.waiting === true,
        completed,
        complete: completed && !wasCompleted,
      });
    }
    return { delta, writes };
  }
}

/**
 * A deletion's effect: every stored call taken out with its feedback
 * (`feedback`: of the calls with a start).
 */
export function forgetDelta(
  before: ReadonlyMap<string, StoredFacts>,
  feedback: ReadonlyMap<string, readonly FeedbackFact[]>,
): RollupDelta {
  const delta = new RollupDelta();
  for (const [id, stored] of before) {
    delta.addCall(stored.facts, -1);
    const given = feedback.get(id);
    if (given !== undefined) delta.addFeedback(stored.facts.start, given, -1);
  }
  return delta;
}

function sameStart(a: CallFacts, b: CallFacts): boolean {
  return JSON.stringify(a.start) === JSON.stringify(b.start);
}
