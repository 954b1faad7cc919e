import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { parseSegmentFileName } from '../outbox/index.js';
import { parseOptions } from '../transport/index.js';
import { countSegment } from './count-segment.js';
import { findOutboxFolders } from './find-outbox-folders.js';
import { type OutboxLockState, readLockState } from './read-lock-state.js';

/** Options of {@link outboxStatus}. */
export interface OutboxStatusOptions {
  /**
   * A folder of per-project outbox folders (the SDK's default is
   * `./.weft/outbox`, holding `./.weft/outbox/<project>`), or one outbox folder.
   */
  dir: string;
  /** Only the outbox folder of this project. @default every project */
  project?: string | undefined;
}

/** What one outbox folder holds. */
export interface OutboxFolderStatus {
  /** The folder's name: the project, in the SDK's default layout. */
  project: string;
  /** Absolute path of the folder. */
  dir: string;
  /** Readable segment files. */
  segments: number;
  /** Whole, valid records in them: what a replay would send. */
  records: number;
  /** Bytes of valid data in them (headers and framed records). */
  bytes: number;
  /** When the oldest segment was created (its last write where the file system keeps no birth time); `undefined` without segments. */
  oldestSegmentAtMs: number | undefined;
  /** When the newest segment was last written; `undefined` without segments. */
  newestSegmentAtMs: number | undefined;
  /** Segment files with a foreign header or a newer format version; never replayed nor deleted. */
  unreadableSegments: number;
  /** Who holds the folder's lock; `held` means a replay would be refused. */
  lock: OutboxLockState;
}

const optionsSchema = z.strictObject({
  dir: z.string().min(1, 'must be a non-empty path'),
  project: z.string().min(1, 'must be a non-empty name').optional(),
});

/**
 * Reports what the outbox folders under `dir` hold, without opening them:
 * nothing is locked, truncated or deleted, so it is safe while the
 * application that owns an outbox is running. Reads every segment once (in
 * proportion to what the outbox holds). A missing `dir` gives `[]`.
 *
 * @throws InvalidTransportOptionsError (`WEFT_INVALID_OPTIONS`) naming a bad option
 */
export async function outboxStatus(options: OutboxStatusOptions): Promise<OutboxFolderStatus[]> {
  const { dir, project } = parseOptions('outboxStatus', optionsSchema, options);
  const folders = await findOutboxFolders(dir, project);
  return Promise.all(folders.map((folder) => folderStatus(folder.project, folder.dir)));
}

async function folderStatus(project: string, dir: string): Promise<OutboxFolderStatus> {
  const status: OutboxFolderStatus = {
    project,
    dir,
    segments: 0,
    records: 0,
    bytes: 0,
    oldestSegmentAtMs: undefined,
    newestSegmentAtMs: undefined,
    unreadableSegments: 0,
    lock: await readLockState(dir),
  };
  const names = (await readdir(dir).catch(() => [] as string[]))
    .filter((name) => parseSegmentFileName(name) !== undefined)
    .sort(); // zero-padded sequence numbers: name order is creation order
  for (const name of names) {
    const count = await countSegment(join(dir, name));
    if (count.kind === 'gone') continue;
    if (count.kind === 'unreadable') {
      status.unreadableSegments++;
      continue;
    }
    status.segments++;
    status.records += count.records;
    status.bytes += count.bytes;
    status.oldestSegmentAtMs ??= count.createdAtMs;
    status.newestSegmentAtMs = count.writtenAtMs;
  }
  return status;
}
