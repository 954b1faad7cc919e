import { EncodedValue } from './encoded-value.js';
import {
  type ResolvedSanitizeOptions,
  resolveSanitizeOptions,
  type SanitizeOptions,
} from './sanitize-options.js';
import { encodeOutputIfSafe, releaseEncoded, writtenNodes, writtenStart } from './safe-encoder.js';
import { type SnapshotLimits, snapshotTape } from './snapshot.js';
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_NODES } from './value-limits.js';
import { forInListsWalkedKeys } from './value-kinds.js';
import type { WrittenValueHook } from './written-value-hook.js';

/** What the caller's turn needs to write an output once (see {@link snapshotOutput}). */
export interface OutputRules {
  /** The client's value rules without its ref hooks (redaction, limits). */
  readonly options: SanitizeOptions;
  /** The values-sent-once threshold (`+Infinity` when values are not deduplicated). */
  readonly thresholdBytes: number;
}

/**
 * The longest string an output written on the caller's turn may hold: a
 * larger output takes the tape, whose cost does not grow with string bytes
 * (design 3 of issue 32 moves those off the caller's turn).
 */
const MAX_STRING = 8 * 1024;
/** The most bytes an output written on the caller's turn takes (past it, the tape). */
const MAX_BYTES = 32 * 1024;

/**
 * A call's output as the tracer keeps it until the pool writes its record:
 * when it is a plain container already in its safe form and small, its
 * msgpack bytes written now ({@link EncodedValue}: the pool copies them);
 * otherwise the snapshot tape ({@link snapshotTape}), as before. Runs on
 * the caller's turn: never throws. The bytes are in an arena: the pipeline
 * gives them back (`releaseEncoded`) when it drops the call's values.
 */
export function snapshotOutput(
  value: unknown,
  limits: SnapshotLimits,
  rules: OutputRules | undefined,
): unknown {
  if (rules !== undefined && typeof value === 'object' && value !== null) {
    const encoded = encodeOutput(value, limits, rules);
    if (encoded !== undefined) return encoded;
  }
  return snapshotTape(value, limits);
}

/** Gives back the arena bytes of an output written on the caller's turn, once its record no longer needs them (any other snapshot: nothing). */
export function releaseSnapshot(value: unknown): void {
  if (EncodedValue.is(value)) releaseEncoded(value.bytes);
}

/** Notes the values the record's hook will be asked about (`EncodedValue.asked`); replaces none. */
class NotingHook implements WrittenValueHook {
  thresholdBytes = Number.POSITIVE_INFINITY;
  asked: unknown[] = [];
  chars = 0;

  knownString(): undefined {
    return undefined;
  }

  written(_b: Uint8Array, start: number, end: number, s?: string): undefined {
    const at = writtenStart();
    this.asked.push(start - at, end - at, s);
    if (s !== undefined) this.chars += s.length;
    return undefined;
  }

  checkpoint(): number {
    return 0;
  }

  since(): readonly unknown[] {
    return NOTHING;
  }

  replay(): void {}
}

const NOTHING: readonly unknown[] = Object.freeze([]);

function encodeOutput(value: object, limits: SnapshotLimits, rules: OutputRules): EncodedValue | undefined {
  let o: ResolvedSanitizeOptions;
  try {
    o = callerRules(rules.options, limits);
  } catch {
    return undefined; // invalid options: the pool reports them
  }
  if (o.redact !== undefined || !forInListsWalkedKeys()) return undefined;
  const threshold = rules.thresholdBytes;
  noting.thresholdBytes = threshold;
  noting.chars = 0;
  const bytes = encodeOutputIfSafe(value, o, noting, MAX_STRING, MAX_BYTES);
  if (bytes === undefined) {
    if (noting.asked.length > 0) noting.asked = [];
    return undefined;
  }
  const asked = noting.asked.length === 0 ? NOTHING : noting.asked;
  if (asked !== NOTHING) noting.asked = [];
  return new EncodedValue(bytes, writtenNodes(), asked, threshold, o, bytes.byteLength + noting.chars);
}

/**
 * The rules an output is checked against on the caller's turn: the client's,
 * within the snapshot's limits (so nothing the snapshot would cut is written
 * whole), with the values the snapshot keeps by identity (published ones)
 * refused. One object per pair, so the pool's check is an identity most of the time.
 */
function callerRules(options: SanitizeOptions, limits: SnapshotLimits): ResolvedSanitizeOptions {
  if (options === lastOptions && limits === lastLimits) return lastRules;
  let byLimits = cache.get(options);
  if (byLimits === undefined) {
    byLimits = new WeakMap();
    cache.set(options, byLimits);
  }
  let o = byLimits.get(limits);
  if (o === undefined) {
    const base = resolveSanitizeOptions(options);
    const keep = limits.keep;
    o = {
      ...base,
      maxDepth: Math.min(base.maxDepth, limitOf(limits.maxDepth, DEFAULT_MAX_DEPTH)),
      maxNodes: Math.min(base.maxNodes, limitOf(limits.maxNodes, DEFAULT_MAX_NODES)),
      onObject: keep === undefined ? undefined : (v: object) => (keep(v) ? 'kept' : undefined),
    };
    byLimits.set(limits, o);
  }
  lastOptions = options;
  lastLimits = limits;
  lastRules = o;
  return o;
}

/** The last rules asked for (one client's, nearly always): no lookup. */
let lastOptions: SanitizeOptions | undefined;
let lastLimits: SnapshotLimits | undefined;
let lastRules: ResolvedSanitizeOptions = resolveSanitizeOptions(undefined);

/** A snapshot limit as the snapshot reads it (see `snapshot.ts`). */
function limitOf(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;
}

const cache = new WeakMap<SanitizeOptions, WeakMap<SnapshotLimits, ResolvedSanitizeOptions>>();
const noting = new NotingHook();
