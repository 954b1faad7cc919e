import { InvalidOptionsError } from '../errors/index.js';
import type { FlushResult } from '../lifecycle/index.js';
import type { ClientParts } from './client-parts.js';

/**
 * How long `flush()` without `timeoutMs` tries to deliver before it falls
 * back to the outbox: 30 s, the deadline of OpenTelemetry's `forceFlush`.
 * Exit handling uses `exitTimeoutMs` instead.
 */
export const DEFAULT_FLUSH_TIMEOUT_MS = 30_000;

/** Options of `WeftClient.flush`. */
export interface FlushOptions {
  /**
   * How long the flush tries to deliver to the server (it keeps the process
   * alive until then, never longer). Records the server has not taken by
   * then are kept in the outbox; what the pipeline has not finished yet is
   * reported as `pending`.
   * @default 30_000 (OpenTelemetry's `forceFlush` default)
   */
  timeoutMs?: number;
}

const EXPIRED = Symbol('expired');

/**
 * How long before its deadline a flush hands what the server has not taken
 * to the outbox: a quarter of the deadline, at most a second. Writing 20,000
 * small records takes tens of milliseconds, but the first write also opens
 * the outbox (folder, lock, segment), which on a busy machine took over
 * 100 ms: a tenth of a 1 s deadline was too short.
 */
function fallbackMarginMs(timeoutMs: number): number {
  return Math.min(1_000, Math.floor(timeoutMs / 4));
}

type FlushParts = Pick<ClientParts, 'barrier' | 'keeper' | 'pipeline' | 'circuit' | 'batcher'>;

/**
 * A delivery-first flush of a client's parts (see `WeftClient.flush`): waits
 * for everything registered before the cut, then for the outbox to deliver
 * what it held at that moment, all within `timeoutMs`; shortly before the
 * deadline the batcher spills what the server has not taken.
 */
export async function flushClient(parts: FlushParts, timeoutMs: number): Promise<FlushResult> {
  const { barrier, keeper, pipeline, circuit, batcher } = parts;
  const epoch = barrier.cut();
  if (barrier.isSettled(epoch) && (keeper === undefined || keeper.idle)) return flushReport(parts, epoch);
  pipeline.beginUrgent();
  const relax = circuit?.hurry();
  // Every transport timer is unref()'d, so while the caller awaits this
  // flush nothing else may hold the event loop open: without this ref'd
  // deadline a top-level `await weft.flush()` ends the process mid-retry.
  let deadline: NodeJS.Timeout | undefined;
  const expired = new Promise<typeof EXPIRED>((r) => {
    deadline = setTimeout(() => r(EXPIRED), timeoutMs);
  });
  // Shortly before the deadline the outbox takes what the server has not,
  // so the flush resolves by then with it durable.
  const fallback = setTimeout(() => batcher?.spillHeld(), timeoutMs - fallbackMarginMs(timeoutMs));
  try {
    const settled = await Promise.race([barrier.whenSettled(epoch), expired]);
    if (settled !== EXPIRED && keeper !== undefined) {
      const mark = await Promise.race([keeper.deliveryMark(), expired]);
      if (mark !== EXPIRED) await Promise.race([keeper.whenDelivered(mark), expired]);
    }
  } finally {
    clearTimeout(deadline);
    clearTimeout(fallback);
    relax?.();
    pipeline.endUrgent();
  }
  return flushReport(parts, epoch);
}

function flushReport({ barrier, keeper }: FlushParts, epoch: number): FlushResult {
  return { ...barrier.report(epoch), replayed: keeper?.takeReplayed() ?? 0 };
}

/** `options.timeoutMs` of a flush, checked; throws `InvalidOptionsError` (`WEFT_INVALID_OPTIONS`) naming it. */
export function flushTimeoutMs(options: FlushOptions): number {
  const { timeoutMs = DEFAULT_FLUSH_TIMEOUT_MS } = options;
  if (!(Number.isFinite(timeoutMs) && timeoutMs >= 0)) {
    throw new InvalidOptionsError(
      'timeoutMs',
      `flush: \`timeoutMs\` must be a non-negative number of milliseconds, got ${String(timeoutMs)}.`,
    );
  }
  return timeoutMs;
}

/**
 * How long closing lets the batcher deliver after the shutdown's flush
 * before the outbox closes: without a server the batcher may wait for it,
 * and the outbox keeps what is left.
 */
const BATCHER_CLOSE_TIMEOUT_MS = 100;

/**
 * Stops a client's parts after its last flush: the circuit, the in-flight
 * registry and the loop-lag sampler; then the batcher (within
 * {@link BATCHER_CLOSE_TIMEOUT_MS}), the outbox and the API client. A failure
 * is reported, never thrown; pending warnings are written last.
 */
export async function closeParts(parts: ClientParts): Promise<void> {
  parts.circuit?.dispose();
  parts.inFlight.stop();
  parts.loopLag.stop();
  try {
    await parts.batcher?.close({ timeoutMs: BATCHER_CLOSE_TIMEOUT_MS });
    await parts.keeper?.close();
    await parts.api.destroy();
  } catch (error) {
    parts.warnings.report('shutdown', 'closing the client failed', error);
  }
  parts.warnings.drain();
}
