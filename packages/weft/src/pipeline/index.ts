export { callItem, failureMarker, type RecordKind, type RecordText, type WalkedParts } from './call-item.js';
export {
  type BarrierReport,
  type Epoch,
  FlushBarrier,
  type FlushResult,
  type UnitOutcome,
} from './flush-barrier.js';
export { InFlight, type StartSubmitter } from './in-flight.js';
export { Pipeline, type PipelineOptions, type RecordSink } from './pipeline.js';
export { Pool, SLICE_MS, yieldTurn } from './pool.js';
