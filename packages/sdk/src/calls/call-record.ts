import type { CallSummary, ModelUsage } from '@weft/protocol';

/**
 * What a finished call's usage and status roll up into while it runs: its
 * parent call, or a running OpenTelemetry span recorded in-process (whose own
 * total then rolls on into its parent).
 */
export interface UsageParent {
  /** Set when it ended: a child that ends later no longer adds to it. */
  readonly endedAt: number | undefined;
  /** Usage of finished children and their descendants, per model. */
  childUsage: Record<string, ModelUsage> | undefined;
  childCounts: { success: number; error: number } | undefined;
}

/**
 * One call as the SDK holds it between `startCall` and the batcher's
 * acknowledgement. Created on the caller's turn with constant work plus the
 * structural snapshot of the inputs; everything else is filled in later.
 */
export interface CallRecord extends UsageParent {
  readonly id: string;
  readonly traceId: string;
  readonly parentId: string | null;
  /** The running parent, for rolling usage and child counts up; cleared when this call ends. */
  parent: UsageParent | undefined;
  /** The client that traces this call (a call of another client is never a parent). */
  readonly owner: object;
  readonly opName: string;
  displayName: string | undefined;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  /** `performance.now()` at start, for latency. */
  readonly startedAtPerf: number;
  /**
   * Structural snapshot of the inputs (named), usually as a `SnapshotTape`.
   * The pipeline drops it (and `output`) once the call's last record is
   * encoded: see `releaseValues` in `pipeline/pipeline.ts`.
   */
  inputs: unknown;
  /** Set at start; replay adds its marks before the call's function runs. */
  attributes: Record<string, unknown> | undefined;
  /** From `withSession` around the call. */
  readonly sessionId?: string | undefined;
  endedAt: number | undefined;
  /** Structural snapshot of the (post-processed) output, a `SnapshotTape` when it is a container. */
  output: unknown;
  /** What the function threw, kept by identity; converted off the caller's turn. */
  error: unknown;
  failed: boolean;
  summary: CallSummary | undefined;
  /** Usage of finished children and their descendants, per model. */
  childUsage: Record<string, ModelUsage> | undefined;
  childCounts: { success: number; error: number } | undefined;
  /** True once a separate start record was handed to the pipeline. */
  startSubmitted: boolean;
  /**
   * Set while in-process OTel spans under this call (or held children) may
   * still end after it: their usage is then added to its summary late (see
   * `op/span-roll-up.ts`). Absent on almost every call.
   */
  spanHold?: SpanHold | undefined;
}

/** What a call's late usage needs: how many spans or children may still add to it, and where it rolls on to. */
export interface SpanHold {
  /** Spans under the call still running, plus ended children still held. */
  open: number;
  /** The call's parent, kept past its end (a call drops its parent when it ends) while `open > 0`. */
  parent: UsageParent | undefined;
}
