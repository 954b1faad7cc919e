import { hasCode, type WeftError } from '@weft/protocol';
import { z } from 'zod';
import { createReplaySender, Outbox, type OutboxLockedError } from '../outbox/index.js';
import { parseOptions } from '../transport/index.js';
import { OutboxInUseError } from './errors/index.js';
import { findOutboxFolders, type OutboxFolder } from './find-outbox-folders.js';
import { RecordingApiClient, type SendFailure } from './recording-api-client.js';

/** Options of {@link replayOutbox}. */
export interface ReplayOutboxOptions {
  /** A folder of per-project outbox folders (the SDK's default is `./.weft/outbox`), or one outbox folder. */
  dir: string;
  /** Base URL of the Weft server, e.g. `http://127.0.0.1:7420`. */
  url: string;
  /** Bearer token, when the server requires one. */
  apiKey?: string | undefined;
  /** Only the outbox folder of this project. @default every project */
  project?: string | undefined;
  /** How long one request may take. @default 30_000 */
  requestTimeoutMs?: number | undefined;
  /**
   * Receives problems met on the way: a record the server rejected as invalid
   * (dropped, since sending it again cannot succeed), a torn or corrupt segment.
   * @default a process warning of type `WeftWarning`
   */
  onWarning?: ((message: string, details: Record<string, unknown>) => void) | undefined;
}

/** What the replay of one outbox folder did. */
export interface FolderReplay {
  project: string;
  dir: string;
  /** Records the server acknowledged. */
  sent: number;
  /** Records still in the folder. */
  remaining: number;
}

/**
 * Why a replay stopped early. Not exceptional (a server being down is what
 * the outbox is for), so it is part of the result; every record not sent is
 * still on disk.
 * - `unreachable`: no HTTP answer (refused, reset, timed out);
 * - `unauthorized`: the server refused the credentials (401/403);
 * - `server-error`: any other answer it could not take records with (5xx, 429, 404, …).
 */
export interface ReplayStop {
  reason: 'unreachable' | 'unauthorized' | 'server-error';
  /** The folder whose replay stopped; later folders were not tried. */
  project: string;
  /** HTTP status, when the server answered. */
  statusCode: number | undefined;
  /** The transport's error, with a message that says what happened. */
  error: WeftError;
}

/** What {@link replayOutbox} did. */
export interface ReplayOutboxResult {
  /** Records the server acknowledged, over every folder. */
  sent: number;
  /** Records still on disk, over every folder. */
  remaining: number;
  /** Per folder, by name. */
  folders: FolderReplay[];
  /** Set when the server could not take records; `undefined` when every folder was replayed. */
  stopped: ReplayStop | undefined;
}

const optionsSchema = z.strictObject({
  dir: z.string().min(1, 'must be a non-empty path'),
  url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }),
  apiKey: z.string().min(1, 'must not be empty').optional(),
  project: z.string().min(1, 'must be a non-empty name').optional(),
  requestTimeoutMs: z.number().int().positive().default(30_000),
  onWarning: z
    .custom<NonNullable<ReplayOutboxOptions['onWarning']>>((value) => typeof value === 'function', {
      message: 'must be a function',
    })
    .optional(),
});

/**
 * Sends what the outbox folders under `dir` hold to the server at `url`,
 * oldest first, folder by folder (sorted by name). A segment file is deleted
 * once every record in it was acknowledged; at the first failure the replay
 * stops and `stopped` says why, keeping everything not acknowledged. Safe to
 * run again: the server's upserts are idempotent.
 *
 * Every folder's lock is taken before anything is sent, so a folder held by
 * a live process refuses the whole replay up front.
 *
 * @throws OutboxInUseError (`WEFT_OUTBOX_IN_USE`, `ownerPid`) when a live process holds a folder; nothing was sent
 * @throws InvalidTransportOptionsError (`WEFT_INVALID_OPTIONS`) naming a bad option
 * @throws OutboxReadFailedError / OutboxOpenFailedError when a folder cannot be read
 */
export async function replayOutbox(options: ReplayOutboxOptions): Promise<ReplayOutboxResult> {
  const { dir, url, apiKey, project, requestTimeoutMs, onWarning } = parseOptions(
    'replayOutbox',
    optionsSchema,
    options,
  );
  const folders = await findOutboxFolders(dir, project);
  const opened = await openAll(folders, onWarning);
  const client = new RecordingApiClient({ url, apiKey, requestTimeoutMs });
  const result: ReplayOutboxResult = { sent: 0, remaining: 0, folders: [], stopped: undefined };
  try {
    const send = createReplaySender(client, onWarning);
    for (const { folder, outbox } of opened) {
      let folderResult: FolderReplay;
      if (result.stopped) {
        // The server failed for an earlier folder; it would fail the same way here.
        folderResult = { ...folder, sent: 0, remaining: outbox.stats.records };
      } else {
        client.forgetFailure();
        const replay = await outbox.replay(send);
        folderResult = { ...folder, sent: replay.sent, remaining: replay.remaining };
        const failure = client.lastFailure;
        if (replay.error !== undefined) throw replay.error; // send() never throws by design; this is a bug or an I/O error
        if (replay.remaining > 0 && failure) result.stopped = stopOf(folder.project, failure);
      }
      result.folders.push(folderResult);
      result.sent += folderResult.sent;
      result.remaining += folderResult.remaining;
    }
  } finally {
    await client.close();
    await Promise.all(opened.map(({ outbox }) => outbox.close()));
  }
  return result;
}

/** Opens every folder, or none: a folder held by a live process refuses the whole replay. */
async function openAll(
  folders: readonly OutboxFolder[],
  onWarning: ReplayOutboxOptions['onWarning'],
): Promise<{ folder: OutboxFolder; outbox: Outbox }[]> {
  const opened: { folder: OutboxFolder; outbox: Outbox }[] = [];
  try {
    for (const folder of folders) {
      const outbox = await Outbox.open({ dir: folder.dir, ...(onWarning ? { onWarning } : {}) });
      opened.push({ folder, outbox });
    }
  } catch (error) {
    await Promise.all(opened.map(({ outbox }) => outbox.close()));
    // By code, not class: works across duplicated copies of the package.
    if (hasCode(error, 'WEFT_OUTBOX_LOCKED')) {
      const folder = folders[opened.length];
      throw new OutboxInUseError(folder?.dir ?? '(unknown)', (error as OutboxLockedError).ownerPid, error);
    }
    throw error;
  }
  return opened;
}

function stopOf(project: string, failure: SendFailure): ReplayStop {
  if (failure.status === 'rejected') {
    const unauthorized = failure.statusCode === 401 || failure.statusCode === 403;
    return {
      reason: unauthorized ? 'unauthorized' : 'server-error',
      project,
      statusCode: failure.statusCode,
      error: failure.error,
    };
  }
  const statusCode = (failure.error as { statusCode?: unknown }).statusCode;
  return {
    reason: failure.error.code === 'WEFT_SERVER_UNREACHABLE' ? 'unreachable' : 'server-error',
    project,
    statusCode: typeof statusCode === 'number' ? statusCode : undefined,
    error: failure.error,
  };
}
