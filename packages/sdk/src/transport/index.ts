export { ApiClient, type ApiClientOptions, type SendResult } from './api-client.js';
export { type BackoffOptions, backoffDelayMs } from './backoff.js';
export { batchBodyPrefix, encodeBatchBody } from './batch-body.js';
export { Batcher, type CallRecord, type RecordOutcome } from './batcher.js';
export {
  type BatcherOptions,
  type BatcherOutbox,
  batcherOptionsSchema,
  DEFAULT_CIRCUIT_FAILURE_THRESHOLD,
  DEFAULT_MAX_BATCH_BYTES,
  type RecordPayload,
} from './batcher-options.js';
export {
  CircuitBreaker,
  type CircuitBreakerOptions,
  type CircuitListener,
  type CircuitState,
  HURRIED_PROBE_MS,
  type ServerHealth,
} from './circuit-breaker.js';
export { recordAnswer, serverCircuit } from './server-circuit.js';
export {
  decodeOutboxRecord,
  encodeOutboxRecord,
  OUTBOX_RECORD_VERSION,
  type OutboxRecord,
} from './outbox-records.js';
export { parseRetryAfter } from './retry-after.js';
export { systemTimers, type Timers } from './timers.js';
export {
  BadResponseError,
  BatcherClosedError,
  DeliveryFailedError,
  HttpError,
  type HttpErrorDetails,
  InvalidRecordError,
  InvalidTransportOptionsError,
  isRetryableStatus,
  NotFoundError,
  OutboxWriteError,
  RecordRejectedError,
  RecordTooLargeError,
  ServerUnreachableError,
} from './transport-errors.js';
export { publishTransportEvent, TRANSPORT_CHANNEL, type TransportEvent } from './transport-events.js';
export {
  DEFAULT_RETRY_POLICY,
  rejectionVerdict,
  type ServerSignal,
  serverSignal,
  splitInHalves,
} from './delivery-rules.js';
export { RecordDelivery, type DeliveryWarnings } from './record-delivery.js';
export { type DeliveryRecord, sendDeliveryRecord } from './delivery-record.js';
export { parseOptions } from './parse-options.js';
