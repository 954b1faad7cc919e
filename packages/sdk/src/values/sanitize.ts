import { asBinary, type Binary, inlineBinary } from './binary.js';
import { ContainerView, containerViewOf } from './container-view.js';
import {
  bigintForm,
  dateForm,
  functionForm,
  limitedLeaf,
  limitedString,
  nonFiniteNumber,
  regexpForm,
  symbolForm,
  unbox,
} from './leaf-forms.js';
import { cycleMarker, type Marker, TRUNCATED_KEYS_MEMBER, truncatedTail, truncatedValue } from './markers.js';
import { REDACTED } from './redact.js';
import {
  type HookResult,
  type ResolvedSanitizeOptions,
  resolveSanitizeOptions,
  type SanitizeOptions,
} from './sanitize-options.js';
import { hookEntry, runRefHook } from './ref-hook.js';
import { SnapshotMarker } from './snapshot-marker.js';
import {
  assign,
  childPath,
  createFrame,
  framePath,
  type Entry,
  type Frame,
  type Key,
  Kind,
} from './walk-frame.js';
import { head, wellFormed } from './well-formed.js';
import { ObjectKind, objectKind } from './value-kinds.js';
import { WalkErrors } from './walk-errors.js';
import { WalkRedaction } from './walk-redaction.js';

export { DEFAULT_REDACTED_ENDINGS, normalizeKeyName, REDACTED } from './redact.js';
export type { SanitizeOptions } from './sanitize-options.js';

const NOT_HANDLED = Symbol('not handled');

/**
 * A resumable walk turning any value into its JSON-like safe form (see
 * docs/values.md for each kind's representation). The pipeline calls
 * `step(budget)` repeatedly, yielding the event loop between slices, until it
 * returns true.
 *
 * Guarantees: iterative (an explicit stack, so depth never touches the call
 * stack), cycle-safe, never throws after construction, each user getter is
 * called at most once per walk (an object met again reuses its output, which
 * is shared rather than walked twice), and the work is bounded by `maxNodes`
 * plus `maxArrayLength` per container opened.
 */
export class Sanitizer {
  readonly #options: ResolvedSanitizeOptions;
  readonly #stack: Frame[] = [];
  readonly #seen = new Map<object, Entry>();
  readonly #pending: Promise<void>[] = [];
  readonly #root: unknown[] = [];
  readonly #errors: WalkErrors;
  readonly #redaction: WalkRedaction;
  #nodes = 0;

  /**
   * @throws InvalidSanitizeOptionsError (code `WEFT_INVALID_OPTIONS`) when `options` are invalid.
   * Options are validated and resolved once per options object and remembered:
   * pass a new object, not a mutated one, to change them.
   */
  constructor(value: unknown, options?: SanitizeOptions) {
    this.#options = resolveSanitizeOptions(options);
    this.#errors = new WalkErrors(this.#options.onError);
    this.#redaction = new WalkRedaction(this.#options, this.#errors);
    // The root is a one-item frame, so the root value has a place to be written to like any other.
    this.#stack.push(createFrame(Kind.Items, [value], null, 1, 0, this.#root, -1, null, 0, null, null, 0));
  }

  /** Processes up to `budget` nodes; true when the walk is complete. Never throws. */
  step(budget: number): boolean {
    const stack = this.#stack;
    try {
      let left = budget;
      while (stack.length > 0 && left > 0) {
        const frame = stack[stack.length - 1] as Frame;
        if (frame.i >= frame.n) {
          this.#close(frame, frame.omitted > 0 ? truncatedTail('length', frame.omitted) : null);
          continue;
        }
        if (this.#nodes >= this.#options.maxNodes) {
          this.#close(frame, truncatedTail('nodes', frame.n - frame.i + frame.omitted));
          continue;
        }
        left--;
        this.#child(frame);
      }
    } catch (error) {
      // Only a bug in this walker gets here; what was built so far stays valid.
      this.#errors.report(error, []);
      stack.length = 0;
    }
    if (stack.length > 0) return false;
    // Done: drop the identity map so a finished walk holds no user objects
    // (pending hooks keep only their own entries).
    this.#seen.clear();
    return true;
  }

  /** The JSON-like result (only null, booleans, finite numbers, strings, arrays, plain objects). Hook promises write their ref strings into place when they resolve. */
  get result(): unknown {
    const value = this.#root[0];
    return value === undefined ? null : value;
  }

  /** Promises of hook results still pending; each resolves after its ref (or an error marker) has been written into `result`, and none rejects. */
  get pending(): readonly Promise<void>[] {
    return this.#pending;
  }

  /**
   * The string values this walk redacted (at least `MIN_SCRUBBED_LENGTH`
   * characters): the same call's free text (display name, exception) and other
   * strings are scrubbed of them, so a secret redacted under its key does not
   * reappear verbatim elsewhere in the record.
   */
  get redactedStrings(): readonly string[] {
    return this.#redaction.strings;
  }

  /** Nodes visited so far, a repeated reference counting its whole size (diagnostics). */
  get nodes(): number {
    return this.#nodes;
  }

  #close(frame: Frame, tail: Marker | null): void {
    if (tail !== null) {
      if (Array.isArray(frame.out)) frame.out.push(tail);
      else frame.out[TRUNCATED_KEYS_MEMBER] = tail;
    }
    if (frame.entry !== null) {
      frame.entry.open = null;
      frame.entry.size = this.#nodes - frame.start;
      frame.entry.height = frame.height;
    }
    if (frame.parent !== null && frame.parent.height < frame.height + 1)
      frame.parent.height = frame.height + 1;
    this.#stack.pop();
  }

  /** Walks the next entry of `frame`. */
  #child(frame: Frame): void {
    const i = frame.i++;
    this.#nodes++;
    const out = frame.out;
    if (frame.keys === null) {
      const items = out as unknown[];
      let value: unknown;
      try {
        value = (frame.src as unknown[])[i];
      } catch (thrown) {
        items.push(this.#errors.unreadable('getter', thrown, frame, i));
        return;
      }
      if (frame.kind === Kind.MapEntries) {
        items.push(this.#mapEntry(value as [unknown, unknown], frame, i));
        return;
      }
      const result = this.#visit(value, frame, i, true);
      items.push(result === undefined ? null : result);
      return;
    }
    const key = frame.keys[i] as string;
    const place =
      key.length > this.#options.maxStringLength ? head(key, this.#options.maxStringLength) : wellFormed(key);
    // A default key is redacted before its value is read, so its getter never runs.
    if (this.#redaction.redactsKey(frame.src as object, key)) {
      assign(out, place, REDACTED);
      return;
    }
    let value: unknown;
    try {
      value = (frame.src as Record<string, unknown>)[key];
    } catch (thrown) {
      assign(out, place, this.#errors.unreadable('getter', thrown, frame, place));
      return;
    }
    if (this.#redaction.functionRedacts(key, value, frame, place)) {
      assign(out, place, REDACTED);
      return;
    }
    const result = this.#visit(value, frame, place, true);
    if (result !== undefined) assign(out, place, result);
  }

  /** A Map entry becomes a `[key, value]` pair; a string key can redact its value like an object key. */
  #mapEntry(pair: [unknown, unknown], frame: Frame, i: number): unknown {
    const depth = frame.depth + 1;
    if (depth > this.#options.maxDepth) return truncatedValue('depth', 'Array');
    const [key, value] = pair;
    if (typeof key === 'string' && this.#redaction.redactsEntry(key, value, frame, i)) {
      return [limitedString(key, this.#options.maxStringLength), REDACTED];
    }
    const out: unknown[] = [];
    this.#stack.push(
      createFrame(Kind.Items, pair, null, 2, 0, out, depth, frame, i, null, null, this.#nodes),
    );
    return out;
  }

  /**
   * The safe form of `value`, placed at `parent.out[key]`. Returns undefined
   * to leave the place out (an `undefined` member); for a container, returns
   * its output after pushing the frame that fills it.
   */
  #visit(value: unknown, parent: Frame, key: Key, toJSON: boolean): unknown {
    switch (typeof value) {
      case 'string':
        return limitedString(value, this.#options.maxStringLength);
      case 'number':
        if (Number.isFinite(value)) return value === 0 ? 0 : value; // -0 becomes 0, as in JSON
        return nonFiniteNumber(value);
      case 'boolean':
      case 'undefined':
        return value;
      case 'bigint':
        return limitedLeaf(bigintForm(value), this.#options.maxStringLength);
      case 'symbol':
        return limitedLeaf(symbolForm(value), this.#options.maxStringLength);
      default:
        return value === null ? null : this.#object(value as object, parent, key, toJSON);
    }
  }

  #object(value: object, parent: Frame, key: Key, toJSON: boolean): unknown {
    if (SnapshotMarker.is(value)) return this.#errors.fromSnapshot(value, parent, key);
    const entry = this.#seen.get(value);
    if (entry !== undefined) return this.#again(entry, parent, key);
    const options = this.#options;
    let kind: ObjectKind;
    try {
      kind = objectKind(value);
    } catch (thrown) {
      // A revoked proxy throws from Array.isArray and from every trap.
      return this.#errors.unreadable('value', thrown, parent, key);
    }
    if (kind === ObjectKind.Binary) {
      let binary: Binary;
      try {
        binary = asBinary(value) as Binary;
      } catch (thrown) {
        // A view on a detached buffer cannot be read.
        return this.#errors.unreadable('value', thrown, parent, key);
      }
      if (options.onBlob !== undefined) {
        const replaced = this.#hook('onBlob', options.onBlob, binary.bytes, value, parent, key);
        if (replaced !== NOT_HANDLED) return replaced;
      }
      return inlineBinary(binary, options.maxInlineBytes);
    }
    if (options.onObject !== undefined) {
      const replaced = this.#hook('onObject', options.onObject, value, value, parent, key);
      if (replaced !== NOT_HANDLED) return replaced;
    }
    try {
      return this.#classify(kind, value, parent, key, toJSON);
    } catch (thrown) {
      // A proxy trap or an exotic object threw while its entries were listed.
      return this.#errors.unreadable('value', thrown, parent, key);
    }
  }

  /** The leaves among the other kinds, a `toJSON` result, or a container walked through its view. */
  #classify(kind: ObjectKind, value: object, parent: Frame, key: Key, toJSON: boolean): unknown {
    const maxString = this.#options.maxStringLength;
    switch (kind) {
      case ObjectKind.Function:
        return limitedLeaf(functionForm(value), maxString);
      case ObjectKind.Date:
        return dateForm(value);
      case ObjectKind.RegExp:
        return limitedLeaf(regexpForm(value), maxString);
      case ObjectKind.Boxed:
        return this.#visit(unbox(value), parent, key, false);
      case ObjectKind.Instance:
        if (toJSON) {
          const replaced = this.#toJSON(value, parent, key);
          if (replaced !== NOT_HANDLED) return replaced;
        }
    }
    const depth = parent.depth + 1;
    const view = containerViewOf(kind, value, depth, this.#options, this.#errors, parent, key);
    return view instanceof ContainerView ? this.#open(view, value, depth, parent, key) : view;
  }

  /**
   * Opens a frame walking `view` (see `ContainerView`) and returns what
   * stands at `parent.out[key]`. The frame is registered under `identity`,
   * so meeting it again is a cycle or a reuse.
   */
  #open(view: ContainerView, identity: object, depth: number, parent: Frame, key: Key): unknown {
    const n = Math.min(view.available, this.#options.maxArrayLength);
    const entry: Entry = { out: view.place, open: null, size: 1, height: 0, waiting: null };
    const omitted = Math.max(0, view.total - n);
    const frame = createFrame(
      view.kind,
      view.src,
      view.keys,
      n,
      omitted,
      view.out,
      depth,
      parent,
      key,
      view.suffix,
      entry,
      this.#nodes,
    );
    entry.open = frame;
    this.#seen.set(identity, entry);
    this.#stack.push(frame);
    return view.place;
  }

  /** JSON semantics: a class instance with a `toJSON` method is represented by what it returns (walked, but not asked again). */
  #toJSON(value: object, parent: Frame, key: Key): unknown {
    let method: unknown;
    let result: unknown;
    try {
      method = (value as { toJSON?: unknown }).toJSON;
      if (typeof method !== 'function') return NOT_HANDLED;
      result = Reflect.apply(method, value, [String(key)]);
    } catch (thrown) {
      return this.#errors.unreadable('toJSON', thrown, parent, key);
    }
    if (result === value) return NOT_HANDLED;
    return this.#visit(result, parent, key, false);
  }

  /** An object met before: a cycle while it is being walked, else its output again (bounded by the limits). */
  #again(entry: Entry, parent: Frame, key: Key): unknown {
    if (entry.open !== null) return cycleMarker(framePath(entry.open));
    if (entry.waiting !== null) {
      entry.waiting.push([parent.out, key]);
      return entry.out;
    }
    if (typeof entry.out !== 'object' || entry.out === null) return entry.out;
    if (parent.depth + 1 + entry.height > this.#options.maxDepth) return truncatedValue('depth', 'repeat');
    if (this.#nodes + entry.size - 1 > this.#options.maxNodes) return truncatedValue('nodes', 'repeat');
    // Shared, not copied: the output is a DAG, which encoders expand; its
    // expanded size still counts, so an exponential DAG hits maxNodes.
    this.#nodes += entry.size - 1;
    if (parent.height < entry.height + 1) parent.height = entry.height + 1;
    return entry.out;
  }

  /** Runs a ref hook; a ref replaces the value now, a pending one is written into every place it appears when it settles. */
  #hook<T>(
    name: 'onObject' | 'onBlob',
    hook: (arg: T) => HookResult,
    arg: T,
    value: object,
    parent: Frame,
    key: Key,
  ): unknown {
    // The path is worked out only when there is an error to report.
    const outcome = runRefHook(name, hook, arg, (error) =>
      this.#errors.report(error, childPath(parent, key)),
    );
    if (outcome.kind === 'none') return NOT_HANDLED;
    const { entry, written } = hookEntry(outcome, parent.out, key);
    this.#seen.set(value, entry);
    if (written !== undefined) this.#pending.push(written);
    return entry.out;
  }
}

/** Runs a {@link Sanitizer} to completion in one go. */
export function sanitize(
  value: unknown,
  options?: SanitizeOptions,
): { value: unknown; pending: readonly Promise<void>[] } {
  const sanitizer = new Sanitizer(value, options);
  sanitizer.step(Number.POSITIVE_INFINITY);
  return { value: sanitizer.result, pending: sanitizer.pending };
}
