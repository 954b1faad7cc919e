import { BatchFill } from '../batching/index.js';
import { OutboxReadFailedError } from './errors/index.js';
import type { OutboxFileHandle, OutboxFileSystem } from './outbox-file-system.js';
import type { ReplayOptions } from './outbox-options.js';
import { type FramesEnd, readFrames } from './read-frames.js';
import type { SegmentInfo } from './segment-file.js';

/** What the outbox tells a segment replay about the world outside it. */
export interface SegmentReplayHooks {
  readonly fileSystem: OutboxFileSystem;
  /** False once the segment was dropped (disk bound) while being replayed. */
  isKept(segment: SegmentInfo): boolean;
  /** True once replay should stop after the current batch (`close()` was called). */
  shouldStop(): boolean;
  /** `records` more of a kept segment were acknowledged. */
  acknowledged(records: number): void;
}

/** How replaying one segment ended. */
export type SegmentReplayOutcome =
  /** Every record read was acknowledged; `end` says whether the segment was read to its end or hit damage. */
  | { kind: 'done'; sent: number; end: FramesEnd }
  /** `send` returned false or threw (`error`); the batch and the rest stay. */
  | { kind: 'refused'; sent: number; error?: unknown }
  /** The segment was dropped meanwhile, or the outbox is closing. */
  | { kind: 'interrupted'; sent: number };

/**
 * Sends the records of `segment` after its acknowledged prefix, in batches of
 * at most `batchRecords` records and about `maxBatchBytes` bytes, and moves
 * the acknowledged prefix forward after each acknowledged batch. It only
 * reads the file; deleting it is the caller's business.
 */
export async function replaySegment(
  segment: SegmentInfo,
  send: (records: Uint8Array[]) => Promise<boolean>,
  { batchRecords, maxBatchBytes }: Required<ReplayOptions>,
  hooks: SegmentReplayHooks,
): Promise<SegmentReplayOutcome> {
  let handle: OutboxFileHandle;
  try {
    handle = await hooks.fileSystem.open(segment.path, 'r');
  } catch (error) {
    if (!hooks.isKept(segment)) return { kind: 'interrupted', sent: 0 };
    throw new OutboxReadFailedError(segment.path, error);
  }
  let batch: Uint8Array[] = [];
  const fill = new BatchFill({ maxItems: batchRecords, maxBytes: maxBatchBytes });
  let batchEnd = segment.ackedOffset;
  let sent = 0;
  let refusal: { error?: unknown } | undefined;

  // Sends the batch; false when replay must stop reading this segment.
  const flush = async (): Promise<boolean> => {
    if (batch.length === 0) return true;
    try {
      if ((await send(batch)) !== true) refusal = {};
    } catch (error) {
      refusal = { error };
    }
    if (refusal) return false;
    if (hooks.isKept(segment)) {
      segment.ackedRecords += batch.length;
      segment.ackedOffset = batchEnd;
      hooks.acknowledged(batch.length);
    }
    sent += batch.length;
    batch = [];
    fill.reset();
    return !hooks.shouldStop() && hooks.isKept(segment);
  };

  let end: FramesEnd;
  try {
    end = await readFrames(handle, segment.ackedOffset, segment.bytes, async (payload, endOffset) => {
      if (!fill.fits(payload.byteLength) && !(await flush())) return false;
      batch.push(payload);
      fill.add(payload.byteLength);
      batchEnd = endOffset;
      return !fill.full || (await flush());
    });
  } catch (error) {
    throw new OutboxReadFailedError(segment.path, error);
  } finally {
    await handle.close().catch(() => undefined);
  }
  if (end.kind === 'stopped' || !(await flush())) {
    return refusal ? { kind: 'refused', sent, ...refusal } : { kind: 'interrupted', sent };
  }
  return { kind: 'done', sent, end };
}
