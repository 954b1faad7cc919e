import { type Call, type EvaluatorRuleParsed, traceSampled } from '@weft/protocol';
import { InvalidRequestError } from '../errors/index.js';
import type { Storage } from '../storage/index.js';
import { callMatches } from './call-matches.js';
import type { EvaluatorState } from './evaluator-store.js';

/** Op names of the calls evaluators record themselves (the judge's): never evaluated. */
export const EVALUATOR_OP_PREFIX = 'weft.evaluator';

/** Pages of candidates one pull reads at most before answering (possibly with nothing). */
const MAX_PAGES = 20;

/** Where a pull's calls end: what the results hand back to move the rule's cursor. */
export type PullPosition =
  | { mode: 'live'; live: string }
  | { mode: 'backfill'; cursor: string | null; walkedTo: number; done: boolean };

/** The opaque cursor a pull answers with. */
export function encodePosition(position: PullPosition | null): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

export function decodePosition(text: string): PullPosition | null {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as PullPosition | null;
    if (value === null || value.mode === 'live' || value.mode === 'backfill') return value;
  } catch {
    // Falls through to the error below.
  }
  throw new InvalidRequestError(
    [{ path: 'cursor', message: 'is not a cursor a pull gave; pass the one from the last pull' }],
    'body',
  );
}

/** Whether a rule scores this call (filter, sample, and never an evaluator's own call). */
export function selected(rule: EvaluatorRuleParsed, call: Call): boolean {
  if (call.opName.startsWith(EVALUATOR_OP_PREFIX)) return false;
  if (!traceSampled(rule.name, call.traceId, rule.sampleRate)) return false;
  return rule.filter === undefined || callMatches(call, rule.filter);
}

/**
 * The next calls a rule has to score, after its stored position: its
 * backfill's calls first while one runs (oldest first, by the calls query
 * with the rule's filter), then calls as they became complete. Reads at most
 * `limit` candidates per page so that every call up to the returned
 * position is either returned or not selected — the position never passes
 * a call that was not handed out.
 */
export async function pullCalls(
  storage: Storage,
  rule: EvaluatorRuleParsed,
  state: EvaluatorState,
  limit: number,
): Promise<{ calls: Call[]; position: PullPosition | null; idle: boolean }> {
  const backfill = state.backfill;
  if (backfill !== null && !backfill.done) {
    let cursor = backfill.cursor;
    let walkedTo = backfill.walkedTo;
    for (let page = 0; page < MAX_PAGES; page++) {
      const { text: _, ...filter } = rule.filter ?? {};
      const answer = await storage.queryCalls({
        ...filter,
        project: rule.project,
        startedAfter: Math.max(backfill.from, filter.startedAfter ?? 0),
        startedBefore: Math.min(backfill.to, filter.startedBefore ?? Number.POSITIVE_INFINITY),
        sort: { field: 'startedAt', direction: 'asc' },
        limit,
        ...(cursor === null ? {} : { cursor }),
      });
      cursor = answer.nextCursor;
      walkedTo = answer.calls.at(-1)?.startedAt ?? backfill.to;
      const calls = answer.calls.filter((call) => call.endedAt !== null && selected(rule, call));
      const done = cursor === null;
      if (calls.length > 0 || done)
        return { calls, position: { mode: 'backfill', cursor, walkedTo, done }, idle: false };
    }
    return { calls: [], position: { mode: 'backfill', cursor, walkedTo, done: false }, idle: false };
  }
  let live = state.live;
  for (let page = 0; page < MAX_PAGES; page++) {
    const completed = await storage.monitoring.completedCalls(rule.project, live, limit);
    if (completed.cursor === null)
      return { calls: [], position: live === undefined ? null : { mode: 'live', live }, idle: true };
    live = completed.cursor;
    const calls: Call[] = [];
    for (const id of completed.ids) {
      const call = await storage.readCall(rule.project, id);
      if (call !== undefined && selected(rule, call)) calls.push(call);
    }
    if (calls.length > 0) return { calls, position: { mode: 'live', live }, idle: false };
  }
  return { calls: [], position: { mode: 'live', live: live as string }, idle: false };
}

/** The state after results up to `position` are stored: the cursor moves forward, never back. */
export function advance(state: EvaluatorState, position: PullPosition | null): EvaluatorState {
  if (position === null) return state;
  if (position.mode === 'live') {
    const ahead = state.live === undefined || Number(position.live) > Number(state.live);
    return ahead ? { ...state, live: position.live } : state;
  }
  const backfill = state.backfill;
  if (backfill === null || position.walkedTo < backfill.walkedTo) return state;
  return {
    ...state,
    backfill: { ...backfill, cursor: position.cursor, walkedTo: position.walkedTo, done: position.done },
  };
}
