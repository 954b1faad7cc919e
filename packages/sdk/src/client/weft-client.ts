import { resolve } from 'node:path';
import {
  type Call,
  call as callSchema,
  type FeedbackInput,
  formatRef,
  hasCode,
  isRefUri,
  LABEL_NAME,
  OBJECT_NAME,
  type ObjectLabel,
  objectLabel,
  objectRead,
  parseRef,
  routes,
} from '@weft/protocol';
import { makeOp, Tracer } from '../op/index.js';
import { ALL_SAMPLED, Sampler } from '../sampling/index.js';
import { ClientClosedError, InvalidOptionsError, PublishFailedError } from '../errors/index.js';
import { ValueDedup } from '../dedup/index.js';
import { LoopLagMonitor, Warnings } from '../diagnostics/index.js';
import {
  type ExitParticipant,
  type FlushResult,
  registerForExit,
  unregisterForExit,
} from '../lifecycle/index.js';
import {
  objectNameOf,
  type ObjectRef,
  ObjectStore,
  parseNameSelector,
  WeftObject,
} from '../objects/index.js';
import {
  Dataset,
  DatasetRefs,
  openDataset,
  registerDatasetHost,
  type RemoteDataset,
} from '../datasets/index.js';
import { FeedbackSender } from '../feedback/index.js';
import { FileApi, FileStore, WeftFile } from '../files/index.js';
import { OutboxKeeper } from '../outbox/index.js';
import { Backlog, FlushBarrier, InFlight, Pipeline, Pool, type RecordSink } from '../pipeline/index.js';
import { type CallPages, CallQueryPages, type GetCallsOptions, registerApiHost } from '../read/index.js';
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
import type { SanitizeOptions } from '../values/index.js';
import type { Diagnostics } from './diagnostics.js';
import type { ResolvedOptions } from './options.js';
import { withFlush, type WithFlushOptions } from '../serverless/index.js';
import { keepOnExit } from './keep-on-exit.js';
import { trackClient } from './live-clients.js';
import { ValueRefs } from './value-refs.js';
import { ValueRules } from './value-rules.js';
import { SnapshotRules } from './snapshot-rules.js';

/**
 * How long `flush()` without `timeoutMs` tries to deliver before it falls
 * back to the outbox: 30 s, the deadline of OpenTelemetry's `forceFlush`.
 * Exit handling uses `exitTimeoutMs` instead.
 */
export const DEFAULT_FLUSH_TIMEOUT_MS = 30_000;

/** Options of {@link WeftClient.flush}. */
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

/** A sink replacing the HTTP batcher, for tests (`@weft/sdk/testing`'s `createClient`). */
export type SinkFactory = (client: WeftClient) => RecordSink;

/**
 * One connection to a trace server for one project: traces ops, saves
 * objects, reads calls back. Create it with `weft.init`. Several may coexist;
 * module-level functions use the default one.
 */
export class WeftClient {
  /** The project calls are recorded in. */
  readonly project: string;
  /** The server address. */
  readonly url: string;
  /**
   * Wraps a function (or, as `@client.op()`, a class method) so each call is
   * traced by THIS client, whichever client is the default.
   */
  readonly op: ReturnType<typeof makeOp>;

  readonly #options: ResolvedOptions;
  readonly #warnings: Warnings;
  readonly #barrier = new FlushBarrier();
  readonly #pool: Pool;
  readonly #store: ObjectStore;
  readonly #fileApi: FileApi;
  readonly #files: FileStore;
  readonly #pipeline: Pipeline;
  readonly #inFlight: InFlight;
  readonly #tracer: Tracer;
  /** Only below rate 1: at the default the tracer has no sampling work at all. */
  readonly #sampler: Sampler | undefined;
  readonly #api: ApiClient;
  readonly #sink: RecordSink;
  readonly #batcher: Batcher | undefined;
  readonly #feedback: FeedbackSender;
  readonly #loopLag = new LoopLagMonitor();
  readonly #values: ValueRules;
  /** Owns spill and replay: the outbox folders, replay on recovery and drain. */
  readonly #keeper: OutboxKeeper | undefined;
  /** Object versions, files and table chunks: the batcher's retry rules and outbox, one request each. */
  readonly #delivery: RecordDelivery;
  /** One circuit breaker for the batcher, the uploads and the outbox replay (undefined with a test sink). */
  readonly #circuit: CircuitBreaker | undefined;
  readonly #snapshot: SnapshotRules;
  /** Large repeated values sent once (undefined with a test sink or `dedupThresholdBytes: 0`). */
  readonly #dedup: ValueDedup | undefined;
  #closed = false;
  #shutdown: Promise<FlushResult> | undefined;
  readonly #exit: ExitParticipant;

  /** @internal Use `weft.init`. */
  constructor(options: ResolvedOptions, sinkFactory?: SinkFactory) {
    this.#options = options;
    this.project = options.project;
    this.#warnings = new Warnings(options.project, options.warningIntervalMs);
    this.#api = new ApiClient({
      url: options.url,
      apiKey: options.apiKey,
      requestTimeoutMs: options.requestTimeoutMs,
      connections: options.connections,
    });
    this.url = this.#api.url;
    const backlog = new Backlog(options.maxWaitingBytes);
    this.#pool = new Pool(
      options.concurrency,
      (error) => this.#warnings.report('pool', 'a pipeline task failed', error),
      backlog,
    );
    this.#values = new ValueRules(options, this.#warnings);
    this.#snapshot = new SnapshotRules({ maxDepth: options.maxDepth, maxNodes: options.maxNodes });
    const outboxDir = options.outbox
      ? resolve(options.outboxDir ?? `.weft/outbox/${options.project}`)
      : undefined;
    this.#circuit = sinkFactory
      ? undefined
      : serverCircuit(this.#api, {
          failureThreshold: DEFAULT_CIRCUIT_FAILURE_THRESHOLD,
          backoff: DEFAULT_RETRY_POLICY.backoff,
        });
    // Test sinks replace the whole transport, the outbox included.
    this.#keeper =
      outboxDir === undefined || sinkFactory
        ? undefined
        : new OutboxKeeper({
            dir: outboxDir,
            api: this.#api,
            warnings: this.#warnings,
            maxBytes: options.outboxMaxBytes,
            health: this.#circuit,
          });
    if (sinkFactory) {
      this.#sink = sinkFactory(this);
    } else {
      const batcherOptions: BatcherOptions = {
        project: options.project,
        client: this.#api,
        outbox: this.#keeper,
        circuit: this.#circuit,
        onWarning: (message, details) => this.#warnings.report('transport', message, details),
      };
      for (const key of [
        'maxBatchItems',
        'maxBatchBytes',
        'flushIntervalMs',
        'maxAttempts',
        'maxConcurrentBatches',
        'maxQueueBytes',
      ] as const) {
        if (options[key] !== undefined) batcherOptions[key] = options[key];
      }
      this.#batcher = new Batcher(batcherOptions);
      this.#sink = this.#batcher;
    }
    this.#delivery = new RecordDelivery({
      project: options.project,
      api: this.#api,
      outbox: this.#keeper,
      health: this.#circuit,
      warnings: this.#warnings,
      policy: this.#batcher?.retryPolicy ?? DEFAULT_RETRY_POLICY,
    });
    this.#store = new ObjectStore({
      project: options.project,
      pool: this.#pool,
      barrier: this.#barrier,
      delivery: this.#delivery,
      warnings: this.#warnings,
      sanitizeOptions: this.#values.forEpoch,
      sliceBudget: options.sliceBudget,
      uploadConcurrency: options.objectUploadConcurrency,
    });
    this.#fileApi = new FileApi(this.#api);
    this.#files = new FileStore({
      project: options.project,
      delivery: this.#delivery,
      barrier: this.#barrier,
      warnings: this.#warnings,
    });
    registerDatasetHost(this, { project: this.project, api: this.#api, records: this.#delivery });
    registerApiHost(this, this.#api);
    this.#values.useHooks(
      new ValueRefs({ store: this.#store, files: this.#files, datasets: new DatasetRefs(this) }),
    );
    this.#feedback = new FeedbackSender({
      barrier: this.#barrier,
      sink: this.#sink,
      warnings: this.#warnings,
    });
    this.#dedup =
      sinkFactory || options.dedupThresholdBytes === 0
        ? undefined
        : new ValueDedup({
            thresholdBytes: options.dedupThresholdBytes,
            maxKnownValues: options.maxKnownValues,
          });
    this.#pipeline = new Pipeline({
      pool: this.#pool,
      barrier: this.#barrier,
      warnings: this.#warnings,
      sink: this.#sink,
      sanitizeOptions: this.#values.forEpoch,
      sliceBudget: options.sliceBudget,
      awaitPendingInSlot: options.awaitPendingInSlot === true,
      // Test sinks read records as the pipeline made them; dedup needs a server's `missingValues`.
      dedup: this.#dedup,
      backlog,
    });
    this.#sampler = options.sampleRate < 1 ? new Sampler(options.sampleRate, options.keep) : undefined;
    this.#inFlight = new InFlight(options.startDelayMs, this.#pipeline);
    this.#tracer = new Tracer({
      owner: this,
      inFlight: this.#inFlight,
      pipeline: this.#pipeline,
      warnings: this.#warnings,
      snapshot: this.#snapshot,
      prices: options.prices,
      sampler: this.#sampler,
    });
    this.op = makeOp(() => (this.#closed ? undefined : this.#tracer));
    this.#loopLag.start();
    const barrier = this.#barrier;
    this.#exit = {
      get outstanding() {
        return barrier.outstanding;
      },
      flushForExit: () => this.#flush(this.#options.exitTimeoutMs),
      keepOnExit: () =>
        keepOnExit({
          project: this.project,
          barrier,
          batcher: this.#batcher,
          delivery: this.#delivery,
          keeper: this.#keeper,
        }),
    };
    if (options.handleExit) registerForExit(this.#exit);
    trackClient(this, true);
  }

  /** @internal The tracer ops of this client run on (undefined after shutdown). */
  get tracer(): Tracer | undefined {
    return this.#closed ? undefined : this.#tracer;
  }

  /**
   * @internal This client's redaction rules and value limits without its
   * object and file hooks: for values written outside calls (evaluation
   * checkpoints), so they are redacted exactly as call records are.
   */
  get valueRules(): SanitizeOptions {
    return this.#values.withoutHooks;
  }

  /** True after `shutdown()`. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Delivers every call that finished before this call — with all its
   * chained work (nested object saves, re-queued finalize) — and what the
   * outbox holds, then resolves. Delivery comes first: while the deadline
   * allows, records go to the server, the circuit probes a server that is
   * down every quarter of a second, and records kept in the outbox (by this
   * process, or by a dead one of the same project) are replayed as soon as
   * it answers; it resolves early only when all of that is acknowledged.
   * Shortly before the deadline what the server has not taken goes to the
   * outbox, so a flush against a server that stays down resolves by its
   * deadline with every record durable (`spilled`). Calls that start
   * afterwards never delay it. While awaited it keeps the process alive
   * (never past its deadline).
   */
  flush(options: FlushOptions = {}): Promise<FlushResult> {
    const { timeoutMs = DEFAULT_FLUSH_TIMEOUT_MS } = options;
    if (!(Number.isFinite(timeoutMs) && timeoutMs >= 0)) {
      return Promise.reject(
        new InvalidOptionsError(
          'timeoutMs',
          `flush: \`timeoutMs\` must be a non-negative number of milliseconds, got ${String(timeoutMs)}.`,
        ),
      );
    }
    return this.#flush(timeoutMs);
  }

  /**
   * Wraps a request handler (`(event, context) => Promise`, or any async
   * function) so its promise settles only after the calls it traced are
   * acknowledged by this client's server, or at `timeoutMs` kept in the
   * outbox (a delivery-first flush), with the handler's result or error
   * unchanged.
   * See `weft.withFlush` and docs/serverless.md.
   */
  withFlush<Args extends unknown[], Result>(
    handler: (...args: Args) => Result,
    options: WithFlushOptions = {},
  ): (...args: Args) => Promise<Awaited<Result>> {
    return withFlush(handler, options, this);
  }

  async #flush(timeoutMs: number): Promise<FlushResult> {
    const epoch = this.#barrier.cut();
    const keeper = this.#keeper;
    if (this.#barrier.isSettled(epoch) && (keeper === undefined || keeper.idle)) return this.#report(epoch);
    this.#pipeline.beginUrgent();
    const relax = this.#circuit?.hurry();
    // Every transport timer is unref()'d, so while the caller awaits this
    // flush nothing else may hold the event loop open: without this ref'd
    // deadline a top-level `await weft.flush()` ends the process mid-retry.
    let deadline: NodeJS.Timeout | undefined;
    const expired = new Promise<typeof EXPIRED>((r) => {
      deadline = setTimeout(() => r(EXPIRED), timeoutMs);
    });
    // Shortly before the deadline the outbox takes what the server has not,
    // so the flush resolves by then with it durable.
    const fallback = setTimeout(() => this.#batcher?.spillHeld(), timeoutMs - fallbackMarginMs(timeoutMs));
    try {
      const settled = await Promise.race([this.#barrier.whenSettled(epoch), expired]);
      if (settled !== EXPIRED && keeper !== undefined) {
        const mark = await Promise.race([keeper.deliveryMark(), expired]);
        if (mark !== EXPIRED) await Promise.race([keeper.whenDelivered(mark), expired]);
      }
    } finally {
      clearTimeout(deadline);
      clearTimeout(fallback);
      relax?.();
      this.#pipeline.endUrgent();
    }
    return this.#report(epoch);
  }

  #report(epoch: number): FlushResult {
    return { ...this.#barrier.report(epoch), replayed: this.#keeper?.takeReplayed() ?? 0 };
  }

  /**
   * Flushes (with `timeoutMs`, default the exit deadline), then closes the
   * transport and the outbox. Later calls of this client's ops run untraced.
   * Idempotent: a second call joins the first.
   */
  shutdown(options: FlushOptions = {}): Promise<FlushResult> {
    this.#shutdown ??= (async () => {
      const result = await this.#flush(options.timeoutMs ?? this.#options.exitTimeoutMs);
      this.#closed = true;
      this.#circuit?.dispose();
      unregisterForExit(this.#exit);
      trackClient(this, false);
      this.#inFlight.stop();
      this.#loopLag.stop();
      try {
        if (this.#batcher) {
          const closing = this.#batcher.close();
          // Without a server the batcher may wait for it; the outbox below keeps what we have.
          await Promise.race([closing, new Promise((r) => setTimeout(r, 100).unref())]);
        }
        await this.#keeper?.close();
        await this.#api.destroy();
      } catch (error) {
        this.#warnings.report('shutdown', 'closing the client failed', error);
      }
      this.#warnings.drain();
      return result;
    })();
    return this.#shutdown;
  }

  /**
   * Saves `value` as a version of the object `name` and returns its ref.
   * A `Dataset` is published as its table plus its object version (see
   * `Dataset.publish`); a `weft.WeftFile` as its bytes plus a `File` version
   * `{ file, mimeType, size, name }`.
   * Afterwards the same value (by identity) in a call's inputs or output is
   * recorded as that ref. Rejects with a `WeftError` when it could not be stored.
   */
  async publish(value: unknown, options: { name?: string } = {}): Promise<ObjectRef> {
    if (this.#closed) throw new ClientClosedError('publish');
    if (value instanceof Dataset) {
      if (options.name !== undefined && options.name !== value.name) {
        throw new InvalidOptionsError(
          'name',
          `publish: a Dataset is published under its own name "${value.name}", got ${JSON.stringify(options.name)}.`,
        );
      }
      return (await value.publish({ client: this })).ref;
    }
    if (WeftFile.isInstance(value)) {
      // Its bytes as a file, then `{ file, mimeType, size, name }` as the object version.
      return this.publish(await this.#files.saveFile(value, this.#barrier.current), {
        name: options.name ?? 'File',
      });
    }
    const isObject = WeftObject.isInstance(value);
    const name = options.name ?? (isObject ? objectNameOf(value as object) : undefined);
    if (name === undefined || !OBJECT_NAME.test(name)) {
      throw new InvalidOptionsError(
        'name',
        `publish: \`name\` must be 1–256 letters, digits, ".", "_" or "-", starting with a letter or digit, got ${JSON.stringify(name)}.`,
      );
    }
    const fields = isObject ? { ...(value as object) } : value;
    // The ref is known once the digest is: the version travels like every
    // other record (flush() waits for it; the outbox keeps it while the
    // server is down), so publish never waits for the server.
    const saved = this.#store.save(fields, name, this.#barrier.current);
    const uri = await saved.ref.catch(() => undefined);
    if (uri === undefined) throw new PublishFailedError(name);
    const ref: ObjectRef = { uri, project: this.project, name, digest: digestOf(uri) };
    this.#store.remember(value, ref.uri);
    if (this.#store.hasPublished) this.#snapshot.keepPublished(this.#store.isPublished);
    return ref;
  }

  /**
   * Reads the value a ref points to: an object version's value (nested
   * objects stay as their ref URIs; call `get` on them to follow), a call,
   * a file's bytes (`Uint8Array`), a table as a lazy {@link RemoteDataset}
   * (rows fetched page by page as you iterate), or one table row
   * (`…/table/<digest>/row/<row digest>`) as its value.
   */
  async get(ref: string | ObjectRef): Promise<unknown> {
    if (typeof ref === 'string' && !isRefUri(ref)) {
      // `Name`, `Name:latest`, `Name:v3`, `Name:production`, `Name:<digest>` in this client's project.
      const { name, version } = parseNameSelector(ref);
      return (await this.#api.getJson(routes.objectRead(this.project, name, version), objectRead)).value;
    }
    const uri = typeof ref === 'string' ? ref : ref.uri;
    const parsed = parseRef(uri);
    let value: unknown;
    let path = parsed.path;
    switch (parsed.kind) {
      case 'file':
        if (path.length > 0)
          throw new InvalidOptionsError('ref', `get: a file ref has no path into it, got ${uri}.`);
        await this.#files.whenStored(parsed.digest);
        return this.#fileApi.read(parsed.project, parsed.digest);
      case 'table': {
        const table = formatRef({ ...parsed, path: [] });
        const view: RemoteDataset = await openDataset(table, { client: this });
        if (path.length === 0) return view;
        const [row, rowDigest, ...rest] = path;
        if (row !== 'row' || rowDigest === undefined) {
          throw new InvalidOptionsError(
            'ref',
            `get: a table ref's path must be /row/<row digest>, got ${uri}.`,
          );
        }
        try {
          const found = await view.rowByDigest(rowDigest);
          if (found === undefined)
            throw new InvalidOptionsError('ref', `get: table ${parsed.digest} has no row ${rowDigest}.`);
          value = found.value;
        } finally {
          await view.close();
        }
        path = rest;
        break;
      }
      case 'object':
      case 'op':
        // A version this client is still uploading is read once it is stored (or kept in the outbox).
        await this.#store.whenStored(parsed.name, parsed.digest);
        value = (
          await this.#api.getJson(routes.objectRead(parsed.project, parsed.name, parsed.digest), objectRead)
        ).value;
        break;
      case 'call':
        value = await this.#api.getJson(routes.call(parsed.project, parsed.id), callSchema);
        break;
    }
    for (const segment of path) {
      value =
        typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[segment] : undefined;
    }
    return value;
  }

  /**
   * Points `label` (`production`, `staging`) of an object name at the version
   * `ref` names — an {@link ObjectRef}, a `weft:///` object ref, or
   * `'Name:v3'` / `'Name:<digest>'` / `'Name:<other label>'` — moving it if it
   * was set. Afterwards `get('Name:<label>')` reads that version.
   */
  async setLabel(ref: string | ObjectRef, label: string): Promise<ObjectLabel> {
    if (this.#closed) throw new ClientClosedError('setLabel');
    if (typeof label !== 'string' || !LABEL_NAME.test(label)) {
      throw new InvalidOptionsError(
        'label',
        `setLabel: \`label\` must be 1–40 letters, digits, ".", "_" or "-", starting with a letter, and not "latest" or "v<N>", got ${JSON.stringify(label)}.`,
      );
    }
    let project = this.project;
    let name: string;
    let digest: string;
    const uri = typeof ref === 'string' ? ref : ref.uri;
    if (isRefUri(uri)) {
      const parsed = parseRef(uri);
      if (parsed.kind !== 'object' && parsed.kind !== 'op') {
        throw new InvalidOptionsError(
          'ref',
          `setLabel: only object and op versions carry labels, got ${uri}.`,
        );
      }
      ({ project, name, digest } = parsed);
    } else {
      const selector = parseNameSelector(uri);
      name = selector.name;
      digest = (await this.#api.getJson(routes.objectRead(project, name, selector.version), objectRead))
        .digest;
    }
    return this.#api.postJson(routes.objectLabelSet(), { project, name, label, digest }, objectLabel);
  }

  /**
   * Records feedback on a call — a thumbs up/down (`value: true | false`), a
   * score (a number) or a label string — with an optional comment and source.
   * Delivered like call records (batched, retried, kept in the outbox;
   * `flush()` waits for it), even when the call itself has not reached the
   * server yet. Returns the feedback's id. Throws `WEFT_INVALID_FEEDBACK`
   * naming the field for bad input. Without a call id (`currentCall()?.id`
   * in a trace sampling left out) nothing is sent: it returns `undefined`,
   * counted in `diagnostics().feedback`.
   */
  feedback(callId: string | null | undefined, feedback: FeedbackInput): string | undefined {
    if (this.#closed) throw new ClientClosedError('feedback');
    return this.#feedback.send(callId, feedback);
  }

  /** The calls matching `options`, fetched page by page as they are iterated. */
  getCalls(options: GetCallsOptions = {}): CallPages {
    return new CallQueryPages(this.#api, this.project, options);
  }

  /** One call by id with its inputs, output, summary, exception and timestamps; `undefined` when the server has none. */
  async getCall(id: string): Promise<Call | undefined> {
    try {
      return await this.#api.getJson(routes.call(this.project, id), callSchema);
    } catch (error) {
      if (hasCode(error, 'WEFT_NOT_FOUND')) return undefined;
      throw error;
    }
  }

  /**
   * What tracing costs and where work stands: event-loop lag (10 Hz samples,
   * cumulative since init or the last `{ resetLoopLag: true }` read), pool,
   * pipeline and batcher gauges, objects, outbox, problems reported.
   */
  diagnostics(options: { resetLoopLag?: boolean } = {}): Diagnostics {
    const batcher = this.#batcher?.stats;
    return {
      loopLag: this.#loopLag.read(options.resetLoopLag === true),
      pool: { concurrency: this.#pool.concurrency, running: this.#pool.running, waiting: this.#pool.waiting },
      inFlightCalls: this.#inFlight.size,
      pendingUnits: this.#barrier.outstanding,
      pipeline: this.#pipeline.stats,
      queue: {
        records: batcher?.queuedRecords ?? 0,
        bytes: batcher?.queuedBytes ?? 0,
        inFlightBatches: batcher?.inFlightBatches ?? 0,
        circuit: batcher?.circuit ?? 'closed',
      },
      delivery: {
        sent: batcher?.sent ?? 0,
        spilled: batcher?.spilled ?? 0,
        failed: batcher?.failed ?? 0,
        retries: batcher?.retries ?? 0,
      },
      objects: this.#store.stats,
      outbox: this.#keeper?.stats,
      sampling: this.#sampler?.stats ?? { ...ALL_SAMPLED },
      feedback: this.#feedback.stats,
      dedup: this.#dedup?.stats,
      problems: this.#warnings.total,
    };
  }
}

/** The digest of an object ref URI (`…/object/<name>:<digest>`). */
function digestOf(uri: string): string {
  const parsed = parseRef(uri);
  return parsed.kind === 'object' || parsed.kind === 'op' ? parsed.digest : '';
}
