import { channel } from 'node:diagnostics_channel';
import { fileCreateResponse, formatRef } from '@weft/protocol';
import { LRUCache } from 'lru-cache';
import PQueue from 'p-queue';
import type { Epoch, FlushBarrier } from '../pipeline/index.js';
import type { DeliveryWarnings, RecordDelivery } from '../transport/index.js';
import { FileUploadFailedError } from './errors/index.js';
import { hashBytes } from './hash-bytes.js';
import type { FileInfo, WeftFile } from './weft-file.js';

/** File digests the server is known to hold; bounded, so a long run never grows it. */
export const KNOWN_FILES_MAX = 10_000;

/**
 * Published on for each step of saving a file (only when someone subscribes):
 * `{ event: 'hash-start' | 'hash-slice' | 'hashed' | 'upload' | 'uploaded' | 'known', bytes, digest? }`.
 * Lets tests and tools see where the work happens without timing it.
 */
export const FILE_CHANNEL = 'weft:file';
const events = channel(FILE_CHANNEL);

/** One step of saving a file, as published on {@link FILE_CHANNEL}. */
export interface FileEvent {
  event: 'hash-start' | 'hash-slice' | 'hashed' | 'upload' | 'uploaded' | 'known';
  bytes: number;
  digest?: string;
}

/** Options of {@link FileStore}. */
export interface FileStoreOptions {
  project: string;
  /** The client's delivery path for files (retry, then the outbox). */
  delivery: Pick<RecordDelivery, 'deliver'>;
  /** Each upload is a unit of the epoch of the call that holds the bytes, so `flush()` waits for it. */
  barrier: Pick<FlushBarrier, 'register' | 'settle'>;
  warnings: DeliveryWarnings;
  /** Uploads at once. @default 2 */
  uploadConcurrency?: number;
}

/**
 * Stores blobs as content-addressed files: hashes them off the caller's turn
 * in slices and gives the file ref as soon as the digest is known; the bytes
 * travel beside the call records through the client's delivery path (retry,
 * then the outbox), each content once (a bounded memory of digests the server
 * holds; saves of the same bytes at the same time share one upload). A call
 * never waits for the server to hold its files, and after any outage and
 * replay every file ref resolves.
 */
export class FileStore {
  readonly #o: Required<FileStoreOptions>;
  readonly #known = new LRUCache<string, true>({ max: KNOWN_FILES_MAX });
  readonly #inflight = new Map<string, Promise<void>>();
  readonly #uploads: PQueue;
  #hashed = 0;
  #hashedBytes = 0;
  #uploaded = 0;
  #uploadedBytes = 0;
  #spilled = 0;
  #skipped = 0;
  #failed = 0;

  constructor(options: FileStoreOptions) {
    this.#o = { uploadConcurrency: 2, ...options };
    this.#uploads = new PQueue({ concurrency: this.#o.uploadConcurrency });
  }

  get stats() {
    return {
      knownDigests: this.#known.size,
      hashed: this.#hashed,
      hashedBytes: this.#hashedBytes,
      uploaded: this.#uploaded,
      uploadedBytes: this.#uploadedBytes,
      spilled: this.#spilled,
      skippedKnown: this.#skipped,
      uploadsInFlight: this.#inflight.size,
      failed: this.#failed,
    };
  }

  /**
   * The Sanitizer's `onBlob` for a call of `epoch`: a promise of
   * `weft:///<project>/file/<digest>`, resolved once the bytes are hashed.
   * Empty data stays inline.
   */
  hook(bytes: Uint8Array, epoch: Epoch): Promise<string> | undefined {
    if (bytes.byteLength === 0) return undefined;
    return this.save(bytes, epoch);
  }

  /** Saves bytes as a file; see {@link FileStore.hook}. */
  async save(bytes: Uint8Array, epoch: Epoch): Promise<string> {
    const digest = await hashBytes(bytes, {
      onStart: () => publish({ event: 'hash-start', bytes: bytes.byteLength }),
      onSlice: (n) => publish({ event: 'hash-slice', bytes: n }),
    });
    this.#hashed++;
    this.#hashedBytes += bytes.byteLength;
    publish({ event: 'hashed', bytes: bytes.byteLength, digest });
    this.#ensureStored(digest, bytes, epoch);
    return formatRef({ kind: 'file', project: this.#o.project, digest, path: [] });
  }

  /** Saves a `weft.WeftFile`'s bytes (reading its path first) and describes it. */
  async saveFile(file: WeftFile, epoch: Epoch): Promise<FileInfo> {
    const bytes = await file.bytes();
    const ref = await this.save(bytes, epoch);
    const info: FileInfo = { file: ref, mimeType: file.mimeTypeOf(bytes), size: bytes.byteLength };
    if (file.name !== undefined) info.name = file.name;
    return info;
  }

  /** Resolves once an upload of `digest` in progress has an outcome (at once when there is none). */
  whenStored(digest: string): Promise<void> {
    return this.#inflight.get(digest) ?? Promise.resolve();
  }

  #ensureStored(digest: string, bytes: Uint8Array, epoch: Epoch): void {
    if (this.#known.has(digest)) {
      this.#skipped++;
      publish({ event: 'known', bytes: bytes.byteLength, digest });
      return;
    }
    if (this.#inflight.has(digest)) return;
    const { barrier } = this.#o;
    barrier.register(epoch);
    let outcome: 'sent' | 'spilled' | 'failed' = 'failed';
    const task = this.#uploads
      .add(async () => {
        outcome = await this.#upload(digest, bytes);
      })
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.#inflight.delete(digest);
        barrier.settle(epoch, outcome, 'other');
      });
    this.#inflight.set(digest, task);
  }

  async #upload(digest: string, bytes: Uint8Array): Promise<'sent' | 'spilled' | 'failed'> {
    publish({ event: 'upload', bytes: bytes.byteLength, digest });
    const outcome = await this.#o.delivery.deliver({ kind: 'file', body: bytes, label: `file ${digest}` });
    switch (outcome.status) {
      case 'spilled':
        this.#spilled++;
        return 'spilled';
      case 'failed':
        this.#failed++;
        return 'failed';
      case 'sent': {
        const receipt = fileCreateResponse.safeParse(outcome.body);
        if (receipt.success && receipt.data.digest !== digest) {
          // The caller changed the bytes after handing them over: what the server
          // holds is not what was hashed, so the ref recorded does not resolve.
          this.#failed++;
          this.#o.warnings.report(
            'file',
            `file ${digest} was not stored as hashed`,
            new FileUploadFailedError(
              digest,
              `the bytes changed while being saved (the server stored ${receipt.data.digest}); do not modify a Buffer after passing it to a traced call`,
            ),
          );
          return 'failed';
        }
        this.#known.set(digest, true);
        this.#uploaded++;
        this.#uploadedBytes += bytes.byteLength;
        publish({ event: 'uploaded', bytes: bytes.byteLength, digest });
        return 'sent';
      }
    }
  }
}

function publish(event: FileEvent): void {
  if (events.hasSubscribers) events.publish(event);
}
