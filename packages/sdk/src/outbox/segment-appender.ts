import { debuglog } from 'node:util';
import type { OutboxFileHandle, OutboxFileSystem } from './outbox-file-system.js';
import type { OutboxFsyncPolicy } from './outbox-options.js';
import { newSegmentInfo, SEGMENT_HEADER_BYTES, type SegmentInfo, segmentHeader } from './segment-file.js';
import { writeFully } from './write-fully.js';

const debug = debuglog('weft');

/**
 * Owns the one segment being written and its single file handle. Writes go
 * at the end offset it keeps in memory, so it never reads the file; a failed
 * write is cut off again before anything else is written.
 */
export class SegmentAppender {
  readonly #fs: OutboxFileSystem;
  readonly #dir: string;
  readonly #fsync: OutboxFsyncPolicy;
  #nextSequence: bigint;
  #active: { info: SegmentInfo; handle: OutboxFileHandle } | undefined;
  /** The segment has writes not yet fsynced. */
  #dirty = false;

  constructor(
    fs: OutboxFileSystem,
    dir: string,
    fsync: OutboxFsyncPolicy,
    nextSequence: bigint,
    tail: { info: SegmentInfo; handle: OutboxFileHandle } | undefined,
  ) {
    this.#fs = fs;
    this.#dir = dir;
    this.#fsync = fsync;
    this.#nextSequence = nextSequence;
    this.#active = tail;
  }

  /** Takes the next segment number for a file written by someone else (at exit, synchronously). */
  reserveSequence(): bigint {
    return this.#nextSequence++;
  }

  /** The segment being written, if one is open. */
  get segment(): SegmentInfo | undefined {
    return this.#active?.info;
  }

  /** Creates the next segment file with its header (and fsyncs the folder unless policy 'never'). */
  async start(): Promise<SegmentInfo> {
    if (this.#active) throw new Error('SegmentAppender.start() while a segment is open');
    const info = newSegmentInfo(this.#dir, this.#nextSequence++, SEGMENT_HEADER_BYTES, 0);
    const handle = await this.#fs.open(info.path, 'wx');
    try {
      await writeFully(handle, segmentHeader(), 0);
    } catch (error) {
      await handle.close().catch(() => undefined);
      await this.#fs.unlink(info.path).catch(() => undefined);
      throw error;
    }
    if (this.#fsync !== 'never') await this.#syncDir();
    this.#active = { info, handle };
    this.#dirty = true;
    return info;
  }

  /**
   * Writes `frames` (holding `records` whole records) at the end of the open
   * segment. On failure the torn bytes are truncated away; when even that
   * fails the segment is closed, so nothing is ever appended after garbage
   * (replay reads it only up to its last good record). Then it rethrows.
   */
  async append(frames: Uint8Array, records: number): Promise<void> {
    const active = this.#active;
    if (active === undefined) throw new Error('SegmentAppender.append() without an open segment');
    const at = active.info.bytes;
    try {
      await writeFully(active.handle, frames, at);
    } catch (error) {
      try {
        await active.handle.truncate(at);
      } catch (truncateError) {
        debug('outbox: rollback of %s failed: %s', active.info.path, (truncateError as Error).message);
        await this.close({ sync: false });
      }
      throw error;
    }
    active.info.bytes = at + frames.byteLength;
    active.info.records += records;
    this.#dirty = true;
  }

  /**
   * fsyncs the open segment if it has unsynced writes. When fsync fails the
   * kernel may have dropped the dirty pages, so the segment is closed (nothing
   * more goes into that file) and the error rethrown.
   */
  async sync(): Promise<void> {
    const active = this.#active;
    if (active === undefined || !this.#dirty) return;
    try {
      await active.handle.sync();
      this.#dirty = false;
    } catch (error) {
      await this.close({ sync: false });
      throw error;
    }
  }

  /**
   * Closes the open segment, fsyncing it first unless `sync: false` or policy
   * 'never'. Returns the closed segment and the fsync error, if any.
   */
  async close({
    sync = true,
  }: {
    sync?: boolean;
  } = {}): Promise<{ segment: SegmentInfo; syncError: unknown } | undefined> {
    const active = this.#active;
    if (active === undefined) return undefined;
    this.#active = undefined;
    let syncError: unknown;
    if (sync && this.#dirty && this.#fsync !== 'never') {
      try {
        await active.handle.sync();
      } catch (error) {
        syncError = error;
      }
    }
    this.#dirty = false;
    await active.handle.close().catch((error: Error) => debug('outbox: close failed: %s', error.message));
    return { segment: active.info, syncError };
  }

  /** Makes a new segment's directory entry durable, so an fsynced file is also findable after power loss. */
  async #syncDir(): Promise<void> {
    try {
      const dir = await this.#fs.open(this.#dir, 'r');
      try {
        await dir.sync();
      } finally {
        await dir.close();
      }
    } catch (error) {
      // Some platforms cannot fsync a directory; the file's own fsync still holds.
      debug('outbox: directory fsync of %s failed: %s', this.#dir, (error as Error).message);
    }
  }
}
