import { digestValue, formatRef, routes } from '@weft/protocol';
import { LRUCache } from 'lru-cache';
import PQueue from 'p-queue';
import type { Warnings } from '../diagnostics/warnings.js';
import type { Epoch, FlushBarrier } from '../pipeline/flush-barrier.js';
import { type Pool, yieldTurn } from '../pipeline/pool.js';
import type { ApiClient } from '../transport/api-client.js';
import { backoffDelayMs } from '../transport/backoff.js';
import { Sanitizer, type SanitizeOptions } from '../values/index.js';
import type { ObjectRef } from './object-ref.js';
import { objectNameOf, WeftObject } from './weft-object.js';

/** Digests (per name) the server is known to hold; bounded, so a long run never grows it. */
export const KNOWN_DIGESTS_MAX = 10_000;
const UPLOAD_ATTEMPTS = 8;

/** An object walk in progress: the chain of `WeftObject`s being saved, to stop a self-reference saving itself forever. */
interface SaveFrame {
  readonly value: object;
  readonly parent: SaveFrame | undefined;
}

export interface ObjectStoreOptions {
  project: string;
  pool: Pool;
  barrier: FlushBarrier;
  api: () => ApiClient;
  warnings: Warnings;
  /** Sanitizer options whose `onObject` calls {@link ObjectStore.hook} with `epoch`. */
  sanitizeOptions: (epoch: Epoch) => SanitizeOptions;
  sliceBudget: number;
  uploadConcurrency: number;
}

/** A save in progress: `ref` resolves once the digest is known (parents wait on it), `stored` once the server has it. */
export interface SavedObject {
  readonly ref: Promise<string>;
  readonly stored: Promise<ObjectRef | undefined>;
}

/**
 * Saves objects as content-addressed versions: walks the value (its own
 * nested objects become pending refs), digests it once those refs are known,
 * then uploads it unless the server already has it. Published values are
 * remembered by identity so a call that contains one records its ref.
 */
export class ObjectStore {
  readonly #o: ObjectStoreOptions;
  readonly #published = new WeakMap<object, string>();
  #publishedCount = 0;
  readonly #known = new LRUCache<string, true>({ max: KNOWN_DIGESTS_MAX });
  readonly #inflight = new Map<string, Promise<boolean>>();
  readonly #uploads: PQueue;
  /** The object walk whose `step()` is running now (steps are synchronous, so this is exact). */
  #current: SaveFrame | undefined;
  #uploaded = 0;
  #skipped = 0;
  #failed = 0;

  constructor(options: ObjectStoreOptions) {
    this.#o = options;
    this.#uploads = new PQueue({ concurrency: options.uploadConcurrency });
  }

  get stats() {
    return {
      knownDigests: this.#known.size,
      knownDigestsMax: KNOWN_DIGESTS_MAX,
      uploadsInFlight: this.#uploads.pending + this.#uploads.size,
      uploaded: this.#uploaded,
      skippedKnown: this.#skipped,
      failed: this.#failed,
    };
  }

  /** True once something was published: only then does the caller's snapshot need to look values up. */
  get hasPublished(): boolean {
    return this.#publishedCount > 0;
  }

  /** For the caller's snapshot: published values are kept by identity so the walk can replace them by their ref. */
  isPublished = (value: object): boolean => this.#published.has(value);

  /** The ref `value` (by identity) was published as, if it was. */
  publishedRef(value: object): string | undefined {
    return this.#publishedCount > 0 ? this.#published.get(value) : undefined;
  }

  /**
   * The Sanitizer's `onObject`: a published value's ref, a pending ref for a
   * `WeftObject` (saved as its own version), `undefined` for anything else.
   */
  hook(value: object, epoch: Epoch): string | Promise<string> | undefined {
    const published = this.publishedRef(value);
    if (published !== undefined) return published;
    if (!WeftObject.isInstance(value)) return undefined;
    for (let frame = this.#current; frame !== undefined; frame = frame.parent) {
      // A WeftObject inside its own value: walk it inline; the walker marks the cycle.
      if (frame.value === value) return undefined;
    }
    let fields: Record<string, unknown>;
    try {
      fields = { ...value };
    } catch (error) {
      this.#o.warnings.report('object-save', `could not read the fields of a ${objectNameOf(value)} object`, error);
      return undefined;
    }
    return this.save(fields, objectNameOf(value), epoch, { value, parent: this.#current }).ref;
  }

  /**
   * Saves `value` as a version of `name`, as a unit of `epoch` in the flush
   * barrier. A failure rejects `ref` (the walk records an `unreadable`
   * marker there), resolves `stored` with `undefined`, and is reported once.
   */
  save(value: unknown, name: string, epoch: Epoch, frame?: SaveFrame): SavedObject {
    const { barrier, pool, warnings } = this.#o;
    barrier.register(epoch);
    let resolveRef!: (uri: string) => void;
    let rejectRef!: (error: unknown) => void;
    let resolveStored!: (ref: ObjectRef | undefined) => void;
    const ref = new Promise<string>((resolve, reject) => {
      resolveRef = resolve;
      rejectRef = reject;
    });
    // A failed save becomes an `unreadable` marker where the ref would be (the
    // Sanitizer handles the rejection); publish() reads `stored` instead.
    ref.catch(() => undefined);
    const stored = new Promise<ObjectRef | undefined>((r) => {
      resolveStored = r;
    });
    const fail = (error: unknown) => {
      warnings.report('object-save', `object ${name} could not be saved`, error);
      this.#failed++;
      rejectRef(error);
      resolveStored(undefined);
      barrier.settle(epoch, 'failed', 'object');
    };
    const digestAndUpload = (result: unknown) => {
      try {
        const digest = digestValue(result);
        const uri = formatRef({ kind: 'object', project: this.#o.project, name, digest, path: [] });
        resolveRef(uri);
        this.#upload(name, digest, result).then((ok) => {
          resolveStored(ok ? { uri, project: this.#o.project, name, digest } : undefined);
          barrier.settle(epoch, ok ? 'sent' : 'failed', 'object');
        }, fail);
      } catch (error) {
        fail(error);
      }
    };
    pool.run(async () => {
      try {
        const sanitizer = new Sanitizer(value, this.#o.sanitizeOptions(epoch));
        const own: SaveFrame = frame ?? { value: value as object, parent: undefined };
        while (!this.#step(sanitizer, own)) await yieldTurn();
        if (sanitizer.pending.length === 0) digestAndUpload(sanitizer.result);
        // A slot never awaits a digest that another slot produces: chain the
        // digest as a new task and return, or a one-slot pool deadlocks.
        else void Promise.all(sanitizer.pending).then(() => pool.run(() => digestAndUpload(sanitizer.result)));
      } catch (error) {
        fail(error);
      }
    });
    return { ref, stored };
  }

  /** Remembers a published value by identity once its ref is known. */
  remember(value: unknown, uri: string): void {
    if (typeof value !== 'object' || value === null) return;
    if (!this.#published.has(value)) this.#publishedCount++;
    this.#published.set(value, uri);
  }

  #step(sanitizer: Sanitizer, frame: SaveFrame): boolean {
    const outer = this.#current;
    this.#current = frame;
    try {
      return sanitizer.step(this.#o.sliceBudget);
    } finally {
      this.#current = outer;
    }
  }

  /** Uploads one version unless the server already has it; concurrent uploads of the same version share one request. */
  #upload(name: string, digest: string, value: unknown): Promise<boolean> {
    const key = `${name}:${digest}`;
    if (this.#known.has(key)) {
      this.#skipped++;
      return Promise.resolve(true);
    }
    const running = this.#inflight.get(key);
    if (running) return running;
    const body = { project: this.#o.project, name, kind: 'object', digest, value };
    const task = this.#uploads
      .add(async () => {
        for (let attempt = 1; ; attempt++) {
          const result = await this.#o.api().post(routes.objectCreate(), body);
          if (result.status === 'sent') {
            this.#known.set(key, true);
            this.#uploaded++;
            return true;
          }
          if (result.status === 'rejected' || attempt >= UPLOAD_ATTEMPTS) {
            this.#failed++;
            this.#o.warnings.report('object-upload', `object ${name}:${digest} was not stored (${result.status})`, result.error);
            return false;
          }
          const wait = Math.max(result.retryAfterMs ?? 0, backoffDelayMs(attempt, { baseMs: 200, maxMs: 5_000 }));
          await new Promise((resolve) => setTimeout(resolve, wait).unref());
        }
      })
      .finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, task);
    return task;
  }
}
