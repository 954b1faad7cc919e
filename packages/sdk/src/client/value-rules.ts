import type { Epoch } from '../pipeline/index.js';
import type { Warnings } from '../diagnostics/index.js';
import type { SanitizeOptions } from '../values/index.js';
import type { ResolvedOptions } from './options.js';

/** What turns an object or a byte buffer found in a value into a ref (see {@link ValueRefs}). */
export interface ValueHooks {
  onObject(value: object, epoch: Epoch): string | Promise<string> | undefined;
  onBlob(bytes: Uint8Array, epoch: Epoch): Promise<string> | undefined;
}

type ValueOptions = Pick<
  ResolvedOptions,
  'redactKeys' | 'redact' | 'maxDepth' | 'maxNodes' | 'maxStringLength' | 'maxArrayLength'
>;

/**
 * One client's rules for recorded values: redaction keys and function, size
 * and depth limits, and (per flush epoch, so a ref's save is counted in the
 * flush it belongs to) the hooks that record objects and files as refs. The
 * pipeline and the object store ask it for `forEpoch(epoch)`; checkpoints use
 * `withoutHooks`, so everything written is redacted by the same rules.
 */
export class ValueRules {
  readonly #base: SanitizeOptions;
  readonly #warnings: Warnings;
  readonly #perEpoch = new WeakMap<Epoch, SanitizeOptions>();
  #hooks: ValueHooks | undefined;

  constructor(options: ValueOptions, warnings: Warnings) {
    this.#warnings = warnings;
    const base: SanitizeOptions = {
      // Names added to the default rules (the walker matches them whatever their case and separators).
      redactKeys: new Set(options.redactKeys ?? []),
      onError: (error: unknown, path: readonly (string | number)[]) =>
        this.#warnings.report(
          'value',
          `a value at ${path.join('.') || '(root)'} could not be read as is; recorded as a marker`,
          error,
        ),
    };
    if (options.redact) base.redact = options.redact;
    if (options.maxDepth !== undefined) base.maxDepth = options.maxDepth;
    if (options.maxNodes !== undefined) base.maxNodes = options.maxNodes;
    if (options.maxStringLength !== undefined) base.maxStringLength = options.maxStringLength;
    if (options.maxArrayLength !== undefined) base.maxArrayLength = options.maxArrayLength;
    this.#base = base;
  }

  /**
   * Sets the ref hooks, once, after the stores they use exist (the stores
   * themselves take these rules, so they cannot be given to the constructor).
   */
  useHooks(hooks: ValueHooks): void {
    this.#hooks = hooks;
  }

  /** The rules without the ref hooks: for values written outside calls (evaluation checkpoints). */
  get withoutHooks(): SanitizeOptions {
    return this.#base;
  }

  /** The rules for the records of `epoch` (one object per epoch, reused by every value of it). */
  readonly forEpoch = (epoch: Epoch): SanitizeOptions => {
    let options = this.#perEpoch.get(epoch);
    if (options === undefined) {
      const hooks = this.#hooks;
      options = { ...this.#base };
      if (hooks !== undefined) {
        options.onObject = (value: object) => hooks.onObject(value, epoch);
        options.onBlob = (bytes: Uint8Array) => hooks.onBlob(bytes, epoch);
      }
      this.#perEpoch.set(epoch, options);
    }
    return options;
  };
}
