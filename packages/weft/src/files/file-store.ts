import { channel } from 'node:diagnostics_channel';
import { formatRef } from '@weft/protocol';
import { LRUCache } from 'lru-cache';
import PQueue from 'p-queue';
import { backoffDelayMs } from '../transport/backoff.js';
import { FileUploadFailedError } from './errors/index.js';
import type { FileApi } from './file-api.js';
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
  api: () => FileApi;
  /** Uploads at once. @default 2 */
  uploadConcurrency?: number;
  /**
   * Attempts per upload before it fails (network errors, 408, 429, 5xx are
   * retried with backoff: at most 3.1 s of waiting over 6 attempts). Short on
   * purpose: the call's record waits for its files. @default 6
   */
  uploadAttempts?: number;
}

/**
 * Stores blobs as content-addressed files: hashes them off the caller's turn
 * in slices, uploads each content once (a bounded memory of digests the
 * server holds; saves of the same bytes at the same time share one upload),
 * and gives the file ref only once the server has the bytes — so a record
 * never names a file the server lacks.
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
  #skipped = 0;
  #failed = 0;
  /**
   * Set when an upload spent its whole retry budget on a server that stayed
   * unreachable (or kept answering 408/429/5xx); cleared by the next success.
   * While set, each upload tries once: calls holding blobs then reach the
   * outbox with a marker promptly instead of each waiting out its own backoff.
   */
  #serverDown = false;

  constructor(options: FileStoreOptions) {
    this.#o = { uploadConcurrency: 2, uploadAttempts: 6, ...options };
    this.#uploads = new PQueue({ concurrency: this.#o.uploadConcurrency });
  }

  get stats() {
    return {
      knownDigests: this.#known.size,
      hashed: this.#hashed,
      hashedBytes: this.#hashedBytes,
      uploaded: this.#uploaded,
      uploadedBytes: this.#uploadedBytes,
      skippedKnown: this.#skipped,
      uploadsInFlight: this.#inflight.size,
      failed: this.#failed,
    };
  }

  /**
   * The Sanitizer's `onBlob`: a promise of `weft:///<project>/file/<digest>`,
   * resolved once the server holds the bytes, rejected (the walk then writes
   * an `unreadable` marker) when they could not be stored. Empty data stays inline.
   */
  hook = (bytes: Uint8Array): Promise<string> | undefined => {
    if (bytes.byteLength === 0) return undefined;
    return this.save(bytes);
  };

  /** Saves bytes as a file; see {@link FileStore.hook}. */
  async save(bytes: Uint8Array): Promise<string> {
    const digest = await hashBytes(bytes, {
      onStart: () => publish({ event: 'hash-start', bytes: bytes.byteLength }),
      onSlice: (n) => publish({ event: 'hash-slice', bytes: n }),
    });
    this.#hashed++;
    this.#hashedBytes += bytes.byteLength;
    publish({ event: 'hashed', bytes: bytes.byteLength, digest });
    await this.#ensureStored(digest, bytes);
    return formatRef({ kind: 'file', project: this.#o.project, digest, path: [] });
  }

  /** Saves a `weft.File`'s bytes (reading its path first) and describes it. */
  async saveFile(file: WeftFile): Promise<FileInfo> {
    const bytes = await file.bytes();
    const ref = await this.save(bytes);
    const info: FileInfo = { file: ref, mimeType: file.mimeTypeOf(bytes), size: bytes.byteLength };
    if (file.name !== undefined) info.name = file.name;
    return info;
  }

  #ensureStored(digest: string, bytes: Uint8Array): Promise<void> {
    if (this.#known.has(digest)) {
      this.#skipped++;
      publish({ event: 'known', bytes: bytes.byteLength, digest });
      return Promise.resolve();
    }
    const running = this.#inflight.get(digest);
    if (running) return running;
    const task = this.#upload(digest, bytes).finally(() => this.#inflight.delete(digest));
    this.#inflight.set(digest, task);
    return task;
  }

  async #upload(digest: string, bytes: Uint8Array): Promise<void> {
    const attempts = this.#serverDown ? 1 : this.#o.uploadAttempts;
    for (let attempt = 1; ; attempt++) {
      // Only the request takes an upload slot; a backoff wait never holds one.
      const result = await this.#uploads.add(() => {
        publish({ event: 'upload', bytes: bytes.byteLength, digest });
        return this.#o.api().upload(this.#o.project, bytes);
      });
      if (result.status === 'sent') this.#serverDown = false;
      if (result.status === 'sent') {
        if (result.digest !== digest) {
          // The caller changed the bytes after handing them over: what the server
          // holds is not what was hashed, so neither digest may be recorded as this value.
          this.#failed++;
          throw new FileUploadFailedError(digest, `the bytes changed while being saved (the server stored ${result.digest}); do not modify a Buffer after passing it to a traced call`);
        }
        this.#known.set(digest, true);
        this.#uploaded++;
        this.#uploadedBytes += bytes.byteLength;
        publish({ event: 'uploaded', bytes: bytes.byteLength, digest });
        return;
      }
      if (result.status === 'rejected' || attempt >= attempts) {
        this.#failed++;
        if (result.status === 'retryable') this.#serverDown = true;
        const why = result.status === 'rejected' ? 'the server refused it' : `still failing after ${attempt} attempts`;
        throw new FileUploadFailedError(digest, `${why}: ${result.error.message}`, result.error);
      }
      const wait = Math.max(result.retryAfterMs ?? 0, backoffDelayMs(attempt, { baseMs: 100, maxMs: 2_000 }));
      await new Promise((resolve) => setTimeout(resolve, wait).unref());
    }
  }
}

function publish(event: FileEvent): void {
  if (events.hasSubscribers) events.publish(event);
}
