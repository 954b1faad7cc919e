import { asBinary, type Binary, inlineBinary } from './binary.js';
import { className } from './class-name.js';
import { mapEntriesOf, setValuesOf } from './collection-entries.js';
import { describeThrown } from './describe-thrown.js';
import { errorView } from './error-view.js';
import {
  bigintForm,
  dateForm,
  functionForm,
  nonFiniteNumber,
  regexpForm,
  symbolForm,
  unbox,
} from './leaf-forms.js';
import {
  cycleMarker,
  MARKER_KEY,
  type Marker,
  pendingMarker,
  TRUNCATED_KEYS_MEMBER,
  truncatedString,
  truncatedTail,
  truncatedValue,
  type UnreadableReason,
  unreadableMarker,
} from './markers.js';
import { MIN_SCRUBBED_LENGTH, REDACTED } from './redact.js';
import {
  type HookResult,
  type ResolvedSanitizeOptions,
  resolveSanitizeOptions,
  type SanitizeOptions,
} from './sanitize-options.js';
import { runRefHook } from './ref-hook.js';
import { SnapshotMarker } from './snapshot-marker.js';
import { arrayLength } from './array-length.js';
import { assign, type Container, createFrame, type Entry, type Frame, type Key, Kind } from './walk-frame.js';
import { head, wellFormed } from './well-formed.js';
import { ObjectKind, objectKind, walkedKeys } from './value-kinds.js';

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
  /** String values redaction removed, for scrubbing the record's free text (see `free-text.ts`). */
  readonly #redactedStrings: string[] = [];
  #nodes = 0;

  /**
   * @throws InvalidSanitizeOptionsError (code `WEFT_INVALID_OPTIONS`) when `options` are invalid.
   * Options are validated and resolved once per options object and remembered:
   * pass a new object, not a mutated one, to change them.
   */
  constructor(value: unknown, options?: SanitizeOptions) {
    this.#options = resolveSanitizeOptions(options);
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
      this.#report(error, []);
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
   * The string values this walk redacted (at least {@link MIN_SCRUBBED_LENGTH}
   * characters): the same call's free text (display name, exception) and other
   * strings are scrubbed of them, so a secret redacted under its key does not
   * reappear verbatim elsewhere in the record.
   */
  get redactedStrings(): readonly string[] {
    return this.#redactedStrings;
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
        items.push(this.#unreadable('getter', thrown, this.#childPath(frame, i)));
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
    if (this.#options.isRedactedKey(key)) {
      this.#rememberOwn(frame.src as object, key);
      assign(out, place, REDACTED);
      return;
    }
    let value: unknown;
    try {
      value = (frame.src as Record<string, unknown>)[key];
    } catch (thrown) {
      assign(out, place, this.#unreadable('getter', thrown, this.#childPath(frame, place)));
      return;
    }
    if (this.#options.redact !== undefined && this.#userRedacts(key, value, frame, place)) {
      this.#remember(value);
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
    if (
      typeof key === 'string' &&
      (this.#options.isRedactedKey(key) ||
        (this.#options.redact !== undefined && this.#userRedacts(key, value, frame, i)))
    ) {
      this.#remember(value);
      return [this.#string(key), REDACTED];
    }
    const out: unknown[] = [];
    this.#stack.push(
      createFrame(Kind.Items, pair, null, 2, 0, out, depth, frame, i, null, null, this.#nodes),
    );
    return out;
  }

  /** Remembers a data property's value without calling a getter (a Proxy trap may still throw: then nothing is remembered). */
  #rememberOwn(src: object, key: string): void {
    try {
      this.#remember(Object.getOwnPropertyDescriptor(src, key)?.value);
    } catch {
      // The value stays redacted; only its scrubbing from free text is lost.
    }
  }

  #remember(value: unknown): void {
    if (typeof value === 'string' && value.length >= MIN_SCRUBBED_LENGTH) this.#redactedStrings.push(value);
  }

  #userRedacts(key: string, value: unknown, frame: Frame, place: Key): boolean {
    const path = this.#childPath(frame, place);
    try {
      return (this.#options.redact as NonNullable<SanitizeOptions['redact']>)(key, value, path) === true;
    } catch (error) {
      // Fail closed: a redaction rule that cannot decide must not leak the value.
      this.#report(error, path);
      return true;
    }
  }

  /**
   * The safe form of `value`, placed at `parent.out[key]`. Returns undefined
   * to leave the place out (an `undefined` member); for a container, returns
   * its output after pushing the frame that fills it.
   */
  #visit(value: unknown, parent: Frame, key: Key, toJSON: boolean): unknown {
    switch (typeof value) {
      case 'string':
        return this.#string(value);
      case 'number':
        if (Number.isFinite(value)) return value === 0 ? 0 : value; // -0 becomes 0, as in JSON
        return nonFiniteNumber(value);
      case 'boolean':
      case 'undefined':
        return value;
      case 'bigint':
        return this.#leaf(bigintForm(value));
      case 'symbol':
        return this.#leaf(symbolForm(value));
      default:
        return value === null ? null : this.#object(value as object, parent, key, toJSON);
    }
  }

  #string(value: string): unknown {
    const max = this.#options.maxStringLength;
    return value.length > max ? truncatedString(value.length, head(value, max)) : wellFormed(value);
  }

  /** Strings inside leaf markers (a symbol's description, a huge bigint) obey the string limit too. */
  #leaf(marker: Marker): Marker {
    for (const key of Object.keys(marker)) {
      const member = marker[key];
      if (key !== MARKER_KEY && typeof member === 'string') marker[key] = this.#string(member);
    }
    return marker;
  }

  #object(value: object, parent: Frame, key: Key, toJSON: boolean): unknown {
    if (SnapshotMarker.is(value)) return this.#fromSnapshot(value, parent, key);
    const entry = this.#seen.get(value);
    if (entry !== undefined) return this.#again(entry, parent, key);
    const options = this.#options;
    let kind: ObjectKind;
    try {
      kind = objectKind(value);
    } catch (thrown) {
      // A revoked proxy throws from Array.isArray and from every trap.
      return this.#unreadable('value', thrown, this.#childPath(parent, key));
    }
    if (kind === ObjectKind.Binary) {
      let binary: Binary;
      try {
        binary = asBinary(value) as Binary;
      } catch (thrown) {
        // A view on a detached buffer cannot be read.
        return this.#unreadable('value', thrown, this.#childPath(parent, key));
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
      return kind <= ObjectKind.Object
        ? this.#container(value, parent, key)
        : this.#classify(kind, value, parent, key, toJSON);
    } catch (thrown) {
      // A proxy trap or an exotic object threw while its entries were listed.
      return this.#unreadable('value', thrown, this.#childPath(parent, key));
    }
  }

  /** A plain array or object: walked into a fresh array or object. */
  #container(value: object, parent: Frame, key: Key): unknown {
    const depth = parent.depth + 1;
    if (Array.isArray(value)) {
      if (depth > this.#options.maxDepth) return truncatedValue('depth', 'Array');
      const n = arrayLength(value);
      const out: unknown[] = [];
      this.#open(Kind.Items, value, value, null, n, n, out, out, depth, parent, key, null);
      return out;
    }
    if (depth > this.#options.maxDepth) return truncatedValue('depth', 'Object');
    const keys = this.#keys(value, parent, key);
    if (!Array.isArray(keys)) return keys;
    const out: Record<string, unknown> = {};
    this.#open(Kind.Fields, value, value, keys, keys.length, keys.length, out, out, depth, parent, key, null);
    return out;
  }

  #classify(kind: ObjectKind, value: object, parent: Frame, key: Key, toJSON: boolean): unknown {
    const depth = parent.depth + 1;
    const max = this.#options.maxArrayLength;
    switch (kind) {
      case ObjectKind.Function:
        return this.#leaf(functionForm(value));
      case ObjectKind.Date:
        return dateForm(value);
      case ObjectKind.RegExp:
        return this.#leaf(regexpForm(value));
      case ObjectKind.Boxed:
        return this.#visit(unbox(value), parent, key, false);
      case ObjectKind.Error: {
        if (depth > this.#options.maxDepth) return truncatedValue('depth', className(value));
        const view = errorView(value, max, this.#options.isRedactedKey);
        const keys = walkedKeys(view);
        const marker: Marker = { [MARKER_KEY]: 'error' };
        this.#open(
          Kind.Fields,
          value,
          view,
          keys,
          keys.length,
          keys.length,
          marker,
          marker,
          depth,
          parent,
          key,
          null,
        );
        return marker;
      }
      case ObjectKind.Map:
      case ObjectKind.Set: {
        const isMap = kind === ObjectKind.Map;
        if (depth > this.#options.maxDepth) return truncatedValue('depth', isMap ? 'Map' : 'Set');
        const { size, items } = isMap ? mapEntriesOf(value, max) : setValuesOf(value, max);
        const list: unknown[] = [];
        const marker: Marker = isMap
          ? { [MARKER_KEY]: 'map', size, entries: list }
          : { [MARKER_KEY]: 'set', size, values: list };
        const frameKind = isMap ? Kind.MapEntries : Kind.Items;
        const suffix = isMap ? 'entries' : 'values';
        this.#open(
          frameKind,
          value,
          items,
          null,
          items.length,
          size,
          marker,
          list,
          depth,
          parent,
          key,
          suffix,
        );
        return marker;
      }
    }
    // ObjectKind.Instance
    if (toJSON) {
      const replaced = this.#toJSON(value, parent, key);
      if (replaced !== NOT_HANDLED) return replaced;
    }
    const name = className(value);
    if (depth > this.#options.maxDepth) return truncatedValue('depth', name);
    const keys = this.#keys(value, parent, key);
    if (!Array.isArray(keys)) return keys;
    const fields: Record<string, unknown> = {};
    const marker: Marker = { [MARKER_KEY]: 'instance', class: name, value: fields };
    this.#open(
      Kind.Fields,
      value,
      value,
      keys,
      keys.length,
      keys.length,
      marker,
      fields,
      depth,
      parent,
      key,
      'value',
    );
    return marker;
  }

  /** Own enumerable string keys, or an `unreadable` marker when listing them threw (a proxy's `ownKeys` trap). */
  #keys(value: object, parent: Frame, key: Key): string[] | Marker {
    try {
      return walkedKeys(value);
    } catch (thrown) {
      return this.#unreadable('keys', thrown, this.#childPath(parent, key));
    }
  }

  /**
   * Opens a frame walking `src` (the object itself, or a view of it) into
   * `out`; `place` is what stands at `parent.out[key]`. `available` entries
   * can be read from `src`, `total` is how many the value has. The frame is
   * registered under `identity`, so meeting it again is a cycle or a reuse.
   */
  #open(
    kind: Kind,
    identity: object,
    src: object,
    keys: readonly string[] | null,
    available: number,
    total: number,
    place: unknown,
    out: Container,
    depth: number,
    parent: Frame,
    key: Key,
    suffix: string | null,
  ): void {
    const n = Math.min(available, this.#options.maxArrayLength);
    const entry: Entry = { out: place, open: null, size: 1, height: 0, waiting: null };
    const omitted = Math.max(0, total - n);
    const frame = createFrame(
      kind,
      src,
      keys,
      n,
      omitted,
      out,
      depth,
      parent,
      key,
      suffix,
      entry,
      this.#nodes,
    );
    entry.open = frame;
    this.#seen.set(identity, entry);
    this.#stack.push(frame);
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
      return this.#unreadable('toJSON', thrown, this.#childPath(parent, key));
    }
    if (result === value) return NOT_HANDLED;
    return this.#visit(result, parent, key, false);
  }

  /** An object met before: a cycle while it is being walked, else its output again (bounded by the limits). */
  #again(entry: Entry, parent: Frame, key: Key): unknown {
    if (entry.open !== null) return cycleMarker(this.#path(entry.open));
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
    const outcome = runRefHook(name, hook, arg, (error) => this.#report(error, this.#childPath(parent, key)));
    switch (outcome.kind) {
      case 'none':
        return NOT_HANDLED;
      case 'ref':
        this.#seen.set(value, { out: outcome.ref, open: null, size: 1, height: 0, waiting: null });
        return outcome.ref;
      default: {
        const stand = pendingMarker();
        const entry: Entry = { out: stand, open: null, size: 1, height: 0, waiting: [[parent.out, key]] };
        this.#seen.set(value, entry);
        const written = outcome.settled.then((out) => {
          for (const [container, at] of entry.waiting ?? []) assign(container, at, out);
          entry.out = out;
          entry.waiting = null;
        });
        // Writing cannot throw, but a pending promise that never rejects is part of the contract.
        this.#pending.push(written.catch(() => undefined));
        return stand;
      }
    }
  }

  #fromSnapshot(marker: SnapshotMarker, parent: Frame, key: Key): Marker {
    if (marker.kind === 'unreadable')
      return this.#unreadable(marker.reading, marker.thrown, this.#childPath(parent, key));
    return marker.omitted >= 0
      ? truncatedTail('nodes', marker.omitted)
      : truncatedValue(marker.reason, marker.type);
  }

  #unreadable(reason: UnreadableReason, thrown: unknown, path: readonly Key[]): Marker {
    this.#report(thrown, path);
    return unreadableMarker(reason, describeThrown(thrown));
  }

  #report(error: unknown, path: readonly Key[]): void {
    try {
      this.#options.onError?.(error, path);
    } catch {
      // The error channel itself failed; there is nowhere left to report to, and throwing is not allowed.
    }
  }

  /** Where `frame`'s value sits in the result. */
  #path(frame: Frame): readonly Key[] {
    if (frame.path === null)
      frame.path = frame.parent === null ? [] : this.#childPath(frame.parent, frame.key);
    return frame.path;
  }

  /** Where the entry `key` of `frame` sits in the result. */
  #childPath(frame: Frame, key: Key): readonly Key[] {
    if (frame.parent === null) return []; // the root frame's only entry is the root value
    const path = [...this.#path(frame)];
    if (frame.suffix !== null) path.push(frame.suffix);
    path.push(key);
    return path;
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
