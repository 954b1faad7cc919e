import { z } from 'zod';
import { firstOptionIssue, optionIssue } from '../errors/index.js';
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_NODES, MAX_DEPTH_LIMIT } from './value-limits.js';
import { InvalidSanitizeOptionsError } from './invalid-sanitize-options-error.js';
import { normalizeKeyName, redactedKeyMatcher } from './redact.js';

const NO_NAMES: ReadonlySet<string> = new Set();

/** A ref URI, a promise of one, or `undefined` to handle the value normally. */
export type HookResult = string | Promise<string> | undefined;

/** Options of {@link Sanitizer} and `sanitize`. */
export interface SanitizeOptions {
  /**
   * Containers nested deeper than this become a `truncated` marker (reason `depth`).
   * Depth counts containers from the root (0); a Map entry counts as one level.
   * At most 400, so that markers never push the result past the canonical encoder's depth limit.
   * @default 100 (at most 400)
   */
  maxDepth?: number;
  /**
   * Values visited (containers and leaves; a repeated reference counts its whole size)
   * before the rest is cut with `truncated` markers (reason `nodes`).
   * @default 20_000
   */
  maxNodes?: number;
  /**
   * Strings longer than this (in UTF-16 code units) become a `truncated` marker with
   * their original length and first characters.
   * @default 1_000_000
   */
  maxStringLength?: number;
  /**
   * Entries walked per array, Map, Set, and keys walked per object; the rest is
   * one `truncated` marker (reason `length`) giving how many were left out.
   * @default 10_000
   */
  maxArrayLength?: number;
  /**
   * Binary data up to this many bytes is inlined whole as base64; longer data
   * (when `onBlob` does not take it) inlines only this many first bytes.
   * @default 1_024
   */
  maxInlineBytes?: number;
  /**
   * Key names whose values are replaced by '[REDACTED]', in addition to the
   * default rules (`DEFAULT_REDACTED_ENDINGS`); matched whatever their
   * case and separators (`x-api-key` is `X_API_KEY` is `xApiKey`).
   * @default none beyond the default rules
   */
  redactKeys?: ReadonlySet<string>;
  /** User redaction: return true to redact this key's value. Errors thrown by it are caught: the value is redacted (fail closed) and the error reported via onError. */
  redact?: (key: string, value: unknown, path: readonly (string | number)[]) => boolean;
  /** Called for each object before it is walked (class instances, plain objects, arrays, Maps, functions…, but not binary data). Return a ref URI string, or a Promise of one, to replace the value by that ref; undefined to walk it normally. A hook that throws or returns anything else is reported and the value is walked normally. */
  onObject?: (value: object) => HookResult;
  /** Called for binary data (Buffer, typed arrays, ArrayBuffer, DataView) with a view of its bytes. Same contract as onObject; when it returns undefined the inline `binary` marker is used. */
  onBlob?: (bytes: Uint8Array) => HookResult;
  /** Errors caught inside the walk (a hook threw, a getter threw…): reported, never thrown. */
  onError?: (error: unknown, path: readonly (string | number)[]) => void;
}

/** Options with every default applied. */
export interface ResolvedSanitizeOptions {
  readonly maxDepth: number;
  readonly maxNodes: number;
  readonly maxStringLength: number;
  readonly maxArrayLength: number;
  readonly maxInlineBytes: number;
  readonly redactKeys: ReadonlySet<string>;
  /** Whether a key's value is redacted by the default rules or `redactKeys` (memoized per options object). */
  readonly isRedactedKey: (key: string) => boolean;
  readonly redact: SanitizeOptions['redact'];
  readonly onObject: SanitizeOptions['onObject'];
  readonly onBlob: SanitizeOptions['onBlob'];
  readonly onError: SanitizeOptions['onError'];
}

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', 'must be a function');
const count = (max?: number) => {
  const int = z.number().int().positive();
  return max === undefined ? int : int.max(max);
};
const schema = z
  .object({
    maxDepth: count(MAX_DEPTH_LIMIT).default(DEFAULT_MAX_DEPTH),
    maxNodes: count().default(DEFAULT_MAX_NODES),
    maxStringLength: count().default(1_000_000),
    maxArrayLength: count().default(10_000),
    maxInlineBytes: z.number().int().nonnegative().default(1_024),
    redactKeys: z
      .custom<ReadonlySet<string>>((v) => v instanceof Set, 'must be a Set of key names')
      .optional(),
    redact: fn.optional(),
    onObject: fn.optional(),
    onBlob: fn.optional(),
    onError: fn.optional(),
  })
  .strict();

const DEFAULTS: ResolvedSanitizeOptions = resolveUncached({});
/**
 * The pipeline builds a Sanitizer per call with the same options object, so
 * validation runs once per options object, not once per call.
 */
const resolved = new WeakMap<SanitizeOptions, ResolvedSanitizeOptions>();

/**
 * Validates `options` and applies the defaults.
 * @throws InvalidSanitizeOptionsError (code `WEFT_INVALID_OPTIONS`) naming the bad option.
 */
export function resolveSanitizeOptions(options: SanitizeOptions | undefined): ResolvedSanitizeOptions {
  if (options === undefined) return DEFAULTS;
  let result = resolved.get(options);
  if (result === undefined) {
    result = resolveUncached(options);
    resolved.set(options, result);
  }
  return result;
}

function resolveUncached(options: SanitizeOptions): ResolvedSanitizeOptions {
  const parsed = schema.safeParse(options);
  if (!parsed.success) {
    throw new InvalidSanitizeOptionsError(firstOptionIssue(parsed.error, options));
  }
  const o = parsed.data;
  const redactKeys = o.redactKeys ?? NO_NAMES;
  for (const key of redactKeys) {
    if (typeof key !== 'string' || normalizeKeyName(key) === '') {
      throw new InvalidSanitizeOptionsError(
        optionIssue('redactKeys', 'must hold key names (strings with a letter or digit)', key),
      );
    }
  }
  return {
    maxDepth: o.maxDepth,
    maxNodes: o.maxNodes,
    maxStringLength: o.maxStringLength,
    maxArrayLength: o.maxArrayLength,
    maxInlineBytes: o.maxInlineBytes,
    redactKeys,
    isRedactedKey: redactedKeyMatcher(redactKeys),
    redact: options.redact,
    onObject: options.onObject,
    onBlob: options.onBlob,
    onError: options.onError,
  };
}
