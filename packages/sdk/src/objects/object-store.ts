import { digestValue, formatRef } from '@weft/protocol';
import { LRUCache } from 'lru-cache';
import PQueue from 'p-queue';
import type { Warnings } from '../diagnostics/index.js';
import { type Epoch, type FlushBarrier, type Pool, yieldTurn } from '../pipeline/index.js';
import type { RecordDelivery } from '../transport/index.js';
import { type SanitizeOptions, Sanitizer } from '../values/index.js';
import type { ObjectRef } from './object-ref.js';
import { objectNameOf, WeftObject } from './weft-object.js';

/** Digests (per name) the server is known to hold; bounded, so a long run never grows it. */
export const KNOWN_DIGESTS_MAX = 10_000;

/** An object walk in progress: the chain of `WeftObject`s being saved, to stop a self-reference saving itself forever. */
interface SaveFrame {
  readonly value: object;
  readonly parent: SaveFrame | undefined;
}

export interface ObjectStoreOptions {
  project: string;
  pool: Pool;
  barrier: FlushBarrier;
  /** The client's delivery path for object versions (retry, then the outbox). */
  delivery: Pick<RecordDelivery, 'deliver'>;
  warnings: Warnings;
  /** Sanitizer options whose `onObject` calls {@link ObjectStore.hook} with `epoch`. */
  sanitizeOptions: (epoch: Epoch) => SanitizeOptions;
  sliceBudget: number;
  uploadConcurrency: number;
}

/**
 * A save in progress: `ref` resolves once the digest is known (parents and
 * `publish` wait on it, never on the server), `stored` once the server has
 * the version or it is durably in the outbox.
 */
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
  readonly #inflight = new Map<string, Promise<UploadOutcome>>();
  readonly #uploads: PQueue;
  /** The object walk whose `step()` is running now (steps are synchronous, so this is exact). */
  #current: SaveFrame | undefined;
  #uploaded = 0;
  #spilled = 0;
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
      spilled: this.#spilled,
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
      this.#o.warnings.report(
        'object-save',
        `could not read the fields of a ${objectNameOf(value)} object`,
        error,
      );
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
        this.#upload(name, digest, result).then((outcome) => {
          resolveStored(outcome === 'failed' ? undefined : { uri, project: this.#o.project, name, digest });
          barrier.settle(epoch, outcome, 'object');
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
        else
          void Promise.all(sanitizer.pending).then(() => pool.run(() => digestAndUpload(sanitizer.result)));
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

  /** Resolves once an upload of `name:digest` in progress has an outcome (at once when there is none). */
  whenStored(name: string, digest: string): Promise<unknown> {
    return this.#inflight.get(`${name}:${digest}`) ?? Promise.resolve();
  }

  /**
   * Uploads one version unless the server already has it, through the
   * client's delivery path (retries, then the outbox); concurrent uploads of
   * the same version share one request.
   */
  #upload(name: string, digest: string, value: unknown): Promise<UploadOutcome> {
    const key = `${name}:${digest}`;
    if (this.#known.has(key)) {
      this.#skipped++;
      return Promise.resolve('sent');
    }
    const running = this.#inflight.get(key);
    if (running) return running;
    const body = { project: this.#o.project, name, kind: 'object', digest, value };
    const task = this.#uploads
      .add(async (): Promise<UploadOutcome> => {
        const outcome = await this.#o.delivery.deliver({ kind: 'object', body, label: `object ${key}` });
        switch (outcome.status) {
          case 'sent':
            this.#known.set(key, true);
            this.#uploaded++;
            return 'sent';
          case 'spilled':
            this.#spilled++;
            return 'spilled';
          case 'failed':
            this.#failed++;
            return 'failed';
        }
      })
      .finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, task);
    return task;
  }
}

type UploadOutcome = 'sent' | 'spilled' | 'failed';
