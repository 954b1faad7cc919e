export { Backlog, DEFAULT_MAX_WAITING_BYTES } from './backlog.js';
export { callItem, failureMarker, type RecordKind, type RecordText, type WalkedParts } from './call-item.js';
export {
  type BarrierReport,
  type Epoch,
  FlushBarrier,
  type UnitOutcome,
} from './flush-barrier.js';
export { InFlight, type StartSubmitter } from './in-flight.js';
export { Pipeline, type PipelineOptions, type RecordSink } from './pipeline.js';
export { BEHIND_SLICE, Pool, SLICE, type Slice, yieldTurn } from './pool.js';
