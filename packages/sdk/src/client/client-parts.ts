import { resolve } from 'node:path';
import { ValueDedup } from '../dedup/index.js';
import { LoopLagMonitor, Warnings } from '../diagnostics/index.js';
import { type DatasetHost, DatasetRefs, registerDatasetHost } from '../datasets/index.js';
import { FeedbackSender } from '../feedback/index.js';
import { FileApi, FileStore } from '../files/index.js';
import { ObjectStore } from '../objects/index.js';
import { Tracer } from '../op/index.js';
import { OutboxKeeper } from '../outbox/index.js';
import { Backlog, FlushBarrier, InFlight, Pipeline, Pool, type RecordSink } from '../pipeline/index.js';
import { registerApiHost } from '../read/index.js';
import { Sampler } from '../sampling/index.js';
import {
  ApiClient,
  Batcher,
  type BatcherOptions,
  type CircuitBreaker,
  DEFAULT_CIRCUIT_FAILURE_THRESHOLD,
  DEFAULT_RETRY_POLICY,
  RecordDelivery,
  serverCircuit,
} from '../transport/index.js';
import { ClientReader } from './client-reader.js';
import type { ResolvedOptions } from './options.js';
import { Publisher } from './publisher.js';
import { SnapshotRules } from './snapshot-rules.js';
import { ValueRefs } from './value-refs.js';
import { ValueRules } from './value-rules.js';

/** The collaborators of one client, built once by {@link wireClient} and handed to each other as objects. */
export interface ClientParts {
  readonly warnings: Warnings;
  /** What `flush()` waits for: every unit of work registered before its cut. */
  readonly barrier: FlushBarrier;
  readonly pool: Pool;
  /** The client's one API client. */
  readonly api: ApiClient;
  /** One circuit breaker for the batcher, the uploads and the outbox replay (undefined with a test sink). */
  readonly circuit: CircuitBreaker | undefined;
  /** Owns spill and replay (undefined with `outbox: false` or a test sink). */
  readonly keeper: OutboxKeeper | undefined;
  /** The HTTP batcher (undefined with a test sink, which replaces the whole transport). */
  readonly batcher: Batcher | undefined;
  /** Where the pipeline hands call records: the batcher, or a test sink. */
  readonly sink: RecordSink;
  /** Object versions, files and table chunks: the batcher's retry rules and outbox, one request each. */
  readonly delivery: RecordDelivery;
  readonly store: ObjectStore;
  readonly files: FileStore;
  readonly values: ValueRules;
  readonly snapshot: SnapshotRules;
  readonly feedback: FeedbackSender;
  /** Large repeated values sent once (undefined with a test sink or `dedupThresholdBytes: 0`). */
  readonly dedup: ValueDedup | undefined;
  readonly pipeline: Pipeline;
  /** Only below rate 1: at the default the tracer has no sampling work at all. */
  readonly sampler: Sampler | undefined;
  readonly inFlight: InFlight;
  readonly tracer: Tracer;
  readonly loopLag: LoopLagMonitor;
  readonly reader: ClientReader;
  readonly publisher: Publisher;
}

/** The batcher options a user may set through `init`. */
const BATCHER_OPTION_KEYS = [
  'maxBatchItems',
  'maxBatchBytes',
  'flushIntervalMs',
  'maxAttempts',
  'maxConcurrentBatches',
  'maxQueueBytes',
] as const;

/**
 * Builds a client's collaborators, bottom-up: API client, circuit, outbox
 * keeper, batcher (or the test sink, which replaces the whole transport,
 * outbox included), record delivery, stores, pipeline, tracer. `host` is
 * the client as the parts see it: datasets' host, the tracer's owner.
 */
export function wireClient(
  options: ResolvedOptions,
  host: DatasetHost,
  makeSink: (() => RecordSink) | undefined,
): ClientParts {
  const warnings = new Warnings(options.project, options.warningIntervalMs);
  const barrier = new FlushBarrier();
  const api = new ApiClient({
    url: options.url,
    apiKey: options.apiKey,
    requestTimeoutMs: options.requestTimeoutMs,
    connections: options.connections,
  });
  const backlog = new Backlog(options.maxWaitingBytes);
  const pool = new Pool(
    options.concurrency,
    (error) => warnings.report('pool', 'a pipeline task failed', error),
    backlog,
  );
  const values = new ValueRules(options, warnings);
  const snapshot = new SnapshotRules({ maxDepth: options.maxDepth, maxNodes: options.maxNodes });
  const circuit = makeSink
    ? undefined
    : serverCircuit(api, {
        failureThreshold: DEFAULT_CIRCUIT_FAILURE_THRESHOLD,
        backoff: DEFAULT_RETRY_POLICY.backoff,
      });
  const keeper =
    !options.outbox || makeSink
      ? undefined
      : new OutboxKeeper({
          dir: resolve(options.outboxDir ?? `.weft/outbox/${options.project}`),
          api,
          warnings,
          maxBytes: options.outboxMaxBytes,
          health: circuit,
        });
  let batcher: Batcher | undefined;
  let sink: RecordSink;
  if (makeSink) {
    sink = makeSink();
  } else {
    const batcherOptions: BatcherOptions = {
      project: options.project,
      client: api,
      outbox: keeper,
      circuit,
      onWarning: (message, details) => warnings.report('transport', message, details),
    };
    for (const key of BATCHER_OPTION_KEYS) if (options[key] !== undefined) batcherOptions[key] = options[key];
    batcher = new Batcher(batcherOptions);
    sink = batcher;
  }
  const delivery = new RecordDelivery({
    project: options.project,
    api,
    outbox: keeper,
    health: circuit,
    warnings,
    policy: batcher?.retryPolicy ?? DEFAULT_RETRY_POLICY,
  });
  const store = new ObjectStore({
    project: options.project,
    pool,
    barrier,
    delivery,
    warnings,
    sanitizeOptions: values.forEpoch,
    sliceBudget: options.sliceBudget,
    uploadConcurrency: options.objectUploadConcurrency,
  });
  const fileApi = new FileApi(api);
  const files = new FileStore({ project: options.project, delivery, barrier, warnings });
  registerDatasetHost(host, { project: options.project, api, records: delivery });
  registerApiHost(host, api);
  values.useHooks(new ValueRefs({ store, files, datasets: new DatasetRefs(host) }));
  const feedback = new FeedbackSender({ barrier, sink, warnings });
  const dedup =
    makeSink || options.dedupThresholdBytes === 0
      ? undefined
      : new ValueDedup({
          thresholdBytes: options.dedupThresholdBytes,
          maxKnownValues: options.maxKnownValues,
        });
  const pipeline = new Pipeline({
    pool,
    barrier,
    warnings,
    sink,
    sanitizeOptions: values.forEpoch,
    sliceBudget: options.sliceBudget,
    awaitPendingInSlot: options.awaitPendingInSlot === true,
    // Test sinks read records as the pipeline made them; dedup needs a server's `missingValues`.
    dedup,
    backlog,
  });
  const sampler = options.sampleRate < 1 ? new Sampler(options.sampleRate, options.keep) : undefined;
  const inFlight = new InFlight(options.startDelayMs, pipeline);
  const tracer = new Tracer({
    owner: host,
    inFlight,
    pipeline,
    warnings,
    snapshot,
    output: {
      options: values.withoutHooks,
      thresholdBytes: dedup === undefined ? Number.POSITIVE_INFINITY : dedup.encoding.thresholdBytes,
    },
    prices: options.prices,
    sampler,
  });
  const loopLag = new LoopLagMonitor();
  const reader = new ClientReader({ project: options.project, api, store, files, fileApi, host });
  const publisher = new Publisher({ project: options.project, store, files, barrier, snapshot, host });
  return {
    warnings,
    barrier,
    pool,
    api,
    circuit,
    keeper,
    batcher,
    sink,
    delivery,
    store,
    files,
    values,
    snapshot,
    feedback,
    dedup,
    pipeline,
    sampler,
    inFlight,
    tracer,
    loopLag,
    reader,
    publisher,
  };
}
