import { describeThrown } from './describe-thrown.js';
import { InvalidHookResultError } from './invalid-hook-result-error.js';
import { type Marker, pendingMarker, unreadableMarker } from './markers.js';
import type { HookResult } from './sanitize-options.js';
import { assign, type Container, type Entry, type Key } from './walk-frame.js';
import { wellFormed } from './well-formed.js';

/** What an `onObject`/`onBlob` hook made of a value. */
export type HookOutcome =
  /** Handle the value as if there were no hook (it returned undefined, threw, or returned junk). */
  | { readonly kind: 'none' }
  | { readonly kind: 'ref'; readonly ref: string }
  /** `settled` never rejects: it gives the ref, or an `unreadable` marker when the hook's promise failed. */
  | { readonly kind: 'pending'; readonly settled: Promise<string | Marker> };

const NONE: HookOutcome = { kind: 'none' };

/**
 * Calls a ref hook on the walker's behalf. Every failure is handed to
 * `report` (which must not throw) and turned into an outcome; nothing thrown
 * by the hook, its result or its promise escapes.
 */
export function runRefHook<T>(
  name: 'onObject' | 'onBlob',
  hook: (arg: T) => HookResult,
  arg: T,
  report: (error: unknown) => void,
): HookOutcome {
  let result: unknown;
  try {
    result = hook(arg);
  } catch (error) {
    report(error);
    return NONE;
  }
  if (result === undefined) return NONE;
  if (typeof result === 'string') return { kind: 'ref', ref: wellFormed(result) };
  if (!isThenable(result)) {
    report(new InvalidHookResultError(name, typeOf(result)));
    return NONE;
  }
  const failed = (error: unknown): Marker => {
    report(error);
    return unreadableMarker('hook', describeThrown(error));
  };
  const settled = Promise.resolve(result).then(
    (ref) =>
      typeof ref === 'string'
        ? wellFormed(ref)
        : failed(new InvalidHookResultError(name, `a Promise of ${typeOf(ref)}`)),
    failed,
  );
  return { kind: 'pending', settled };
}

/**
 * The identity entry of a value a hook replaced: its ref, or, while the ref
 * is pending, a stand-in marker (first written at `container[key]`) and
 * `written`, which writes the ref into every place the stand-in was written
 * to once it settles. `written` never rejects.
 */
export function hookEntry(
  outcome: Exclude<HookOutcome, { kind: 'none' }>,
  container: Container,
  key: Key,
): { entry: Entry; written?: Promise<void> } {
  if (outcome.kind === 'ref')
    return { entry: { out: outcome.ref, open: null, size: 1, height: 0, waiting: null } };
  const entry: Entry = { out: pendingMarker(), open: null, size: 1, height: 0, waiting: [[container, key]] };
  const written = outcome.settled.then((out) => {
    for (const [place, at] of entry.waiting ?? []) assign(place, at, out);
    entry.out = out;
    entry.waiting = null;
  });
  // Writing cannot throw, but a pending promise that never rejects is part of the contract.
  return { entry, written: written.catch(() => undefined) };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  try {
    return typeof (value as { then?: unknown }).then === 'function';
  } catch {
    return false;
  }
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
