import type { FeedbackValue } from '@weft/protocol';
import { type CallFacts, latencyOf, type ModelFacts, type StartFacts } from './call-facts.js';
import {
  ALL_OPS,
  type CallRollupKey,
  CUTS,
  type CutKind,
  callKeyString,
  type FeedbackRollupKey,
  feedbackKeyString,
  levelStart,
  type RollupStatus,
} from './rollup-keys.js';
import {
  addCallValues,
  addCount,
  addFeedbackValues,
  type CallRollupValues,
  countLatency,
  countTtft,
  distributionKey,
  emptyCallValues,
  emptyFeedbackValues,
  type FeedbackRollupValues,
  isZeroCallValues,
  isZeroFeedbackValues,
} from './rollup-values.js';

/** One feedback as rollups count it. */
export interface FeedbackFact {
  name: string;
  value: FeedbackValue;
}

/** A cut a call counts under, with the values it adds there (a model's cut adds that model's tokens and cost). */
interface CutEntry {
  cut: CutKind;
  value: string;
  model?: ModelFacts;
}

/** Calls' contributions to one minute, trace position, status, op and cut value (see `RollupDelta`). */
interface CallGroup {
  minute: number;
  root: boolean;
  status: RollupStatus;
  op: string;
  entry: CutEntry;
  values: CallRollupValues;
}

/** Separates the parts of a group's map key, as in `callKeyString`. */
const SEP = '\u0000';

/** A rollup row's change: its key and what to add (negative to take out). */
export interface CallRollupChange {
  key: CallRollupKey;
  values: CallRollupValues;
}

export interface FeedbackRollupChange {
  key: FeedbackRollupKey;
  values: FeedbackRollupValues;
}

/**
 * What a batch changes in the rollups, added up per row: each call's
 * contribution before the batch is taken out and its contribution after is
 * put in. The rollups always equal the sum of every stored call's
 * contribution, however its records arrived (in any order, twice, over
 * restarts) — the property the rollup tests check against a recomputation.
 *
 * A call counts once its start is known (the start gives its bucket and
 * dimensions): under its status (`running` until the end arrives), in each
 * cut it has (totals; its version, each tag, each model of its usage; its
 * user and session), per op and for all ops where the cut is kept so.
 * Feedback counts with the same keys (without the status) once its call's
 * start is known.
 */
export class RollupDelta {
  readonly #calls = new Map<string, CallRollupChange>();
  readonly #feedback = new Map<string, FeedbackRollupChange>();
  /**
   * Call contributions added up per minute, trace position, status, op and
   * cut value, before they are spread over their rows' keys (both levels,
   * the op and all ops) in {@link callChanges}: a batch's calls mostly share
   * these, so each call adds into one group per cut instead of into every
   * row it counts in (8 for a call of one model).
   */
  readonly #groups = new Map<string, CallGroup>();

  /** Adds (`sign` 1) or takes out (−1) the contribution of a call with these facts. */
  addCall(facts: CallFacts, sign: 1 | -1): void {
    const contribution = callContribution(facts);
    if (contribution === undefined) return;
    const { start, status } = contribution;
    const minute = levelStart('m', start.startedAt);
    const prefix = `${minute}${SEP}${start.root ? 1 : 0}${SEP}${status}${SEP}${start.op}${SEP}`;
    for (const entry of cutsOf(start, facts.end?.models ?? [])) {
      const values =
        entry.model === undefined ? contribution.totals : modelValues(contribution.totals, entry.model);
      const id = `${prefix}${entry.cut}${SEP}${entry.value}`;
      let group = this.#groups.get(id);
      if (group === undefined) {
        group = { minute, root: start.root, status, op: start.op, entry, values: emptyCallValues() };
        this.#groups.set(id, group);
      }
      addCallValues(group.values, values, sign);
    }
  }

  /** Adds or takes out feedback on a call whose start is `start` (nothing while the start is unknown). */
  addFeedback(start: StartFacts | null, feedback: readonly FeedbackFact[], sign: 1 | -1): void {
    if (start === null || feedback.length === 0) return;
    const cuts = cutsOf(start, []);
    for (const item of feedback) {
      const values = feedbackValues(item.value);
      for (const entry of cuts) {
        forEachKey(start.op, entry, (level, op) => {
          const key: FeedbackRollupKey = {
            level,
            t: levelStart(level, start.startedAt),
            root: start.root,
            op,
            cut: entry.cut,
            value: entry.value,
            name: item.name,
          };
          const id = feedbackKeyString(key);
          let change = this.#feedback.get(id);
          if (change === undefined) {
            change = { key, values: emptyFeedbackValues() };
            this.#feedback.set(id, change);
          }
          addFeedbackValues(change.values, values, sign);
        });
      }
    }
  }

  /** The call rollup rows that change (rows whose changes cancelled out are left out). */
  callChanges(): CallRollupChange[] {
    for (const { minute, root, status, op, entry, values } of this.#groups.values()) {
      forEachKey(op, entry, (level, keyOp) => {
        const key: CallRollupKey = {
          level,
          // An hour is a whole number of minutes: the minute's hour is the call's.
          t: levelStart(level, minute),
          root,
          status,
          op: keyOp,
          cut: entry.cut,
          value: entry.value,
        };
        const id = callKeyString(key);
        let change = this.#calls.get(id);
        if (change === undefined) {
          change = { key, values: emptyCallValues() };
          this.#calls.set(id, change);
        }
        addCallValues(change.values, values);
      });
    }
    this.#groups.clear();
    return [...this.#calls.values()].filter((change) => !isZeroCallValues(change.values));
  }

  feedbackChanges(): FeedbackRollupChange[] {
    return [...this.#feedback.values()].filter((change) => !isZeroFeedbackValues(change.values));
  }
}

/** What one call adds to a rollup row of its totals; `undefined` while its start is unknown. */
export interface CallContribution {
  start: StartFacts;
  status: RollupStatus;
  totals: CallRollupValues;
}

/** A call's contribution to its totals' rows (its cuts but models add the same; see {@link modelValues}). */
export function callContribution(facts: CallFacts): CallContribution | undefined {
  const { start, end } = facts;
  if (start === null) return undefined;
  const latency = latencyOf(facts);
  const totals = emptyCallValues();
  totals.n = 1;
  if (latency !== null) countLatency(totals, latency);
  if (end !== null && end.ttftMs !== null) countTtft(totals, end.ttftMs);
  for (const model of end?.models ?? []) addModelUsage(totals, model);
  if (end !== null && end.costNano !== null) {
    // The summary's own total: the same as the models' sum when every model is priced.
    totals.costN = 1;
    totals.costNano = end.costNano;
  }
  return { start, status: end === null ? 'running' : end.status, totals };
}

/** What a call adds to the rows of one of its models: its count and times, that model's tokens and cost. */
export function modelValues(totals: CallRollupValues, model: ModelFacts): CallRollupValues {
  const values = { ...totals, ...zeroUsage() };
  addModelUsage(values, model);
  values.costN = model.costNano === null ? 0 : 1;
  values.costNano = model.costNano ?? 0;
  return values;
}

/** The cuts a call counts under: its totals, version, tags, models (for a call's own start: no models for feedback), user, session. */
function cutsOf(start: StartFacts, models: readonly ModelFacts[]): CutEntry[] {
  const entries: CutEntry[] = [{ cut: '', value: '' }];
  if (start.version !== null) entries.push({ cut: 'version', value: start.version });
  for (const tag of start.tags) entries.push({ cut: 'tag', value: tag });
  for (const model of models) entries.push({ cut: 'model', value: model.model, model });
  if (start.user !== null) entries.push({ cut: 'user', value: start.user });
  if (start.session !== null) entries.push({ cut: 'session', value: start.session });
  return entries;
}

function forEachKey(op: string, entry: CutEntry, visit: (level: 'm' | 'h', op: string) => void): void {
  const { perOp, levels } = CUTS[entry.cut];
  for (const level of levels) {
    visit(level, ALL_OPS);
    // An op literally named `*` is still counted once per row key.
    if (perOp && op !== ALL_OPS) visit(level, op);
  }
}

function zeroUsage(): Pick<
  CallRollupValues,
  'inputTokens' | 'outputTokens' | 'cachedTokens' | 'reasoningTokens' | 'totalTokens'
> {
  return { inputTokens: 0, outputTokens: 0, cachedTokens: 0, reasoningTokens: 0, totalTokens: 0 };
}

function addModelUsage(values: CallRollupValues, model: ModelFacts): void {
  values.inputTokens += model.input;
  values.outputTokens += model.output;
  values.cachedTokens += model.cached;
  values.reasoningTokens += model.reasoning;
  values.totalTokens += model.total;
}

export function feedbackValues(value: FeedbackValue): FeedbackRollupValues {
  const values = emptyFeedbackValues();
  values.n = 1;
  if (typeof value !== 'string') {
    const x = typeof value === 'boolean' ? (value ? 1 : 0) : value;
    values.numericN = 1;
    values.sum = x;
    values.sumSquares = x * x;
  }
  addCount(values.distribution, distributionKey(value), 1);
  return values;
}
