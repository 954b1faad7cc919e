import type { Call, FeedbackInput, ObjectLabel } from '@weft/protocol';
import { ClientClosedError } from '../errors/index.js';
import type { FlushResult } from '../lifecycle/index.js';
import type { ObjectRef } from '../objects/index.js';
import { makeOp, type Tracer } from '../op/index.js';
import type { RecordSink } from '../pipeline/index.js';
import type { CallPages, GetCallsOptions } from '../read/index.js';
import { withFlush, type WithFlushOptions } from '../serverless/index.js';
import type { SanitizeOptions } from '../values/index.js';
import { type ClientParts, wireClient } from './client-parts.js';
import { type Diagnostics, readDiagnostics } from './diagnostics.js';
import { closeParts, type FlushOptions, flushClient, flushTimeoutMs } from './flush-client.js';
import { joinExit } from './keep-on-exit.js';
import { trackClient } from './live-clients.js';
import type { ResolvedOptions } from './options.js';

/** A sink replacing the HTTP batcher, for tests (`@weft/sdk/testing`'s `createClient`). */
export type SinkFactory = (client: WeftClient) => RecordSink;

/**
 * One connection to a trace server for one project: traces ops, saves
 * objects, reads calls back. Create it with `weft.init`. Several may coexist;
 * module-level functions use the default one.
 *
 * A façade: the parts are built by `wireClient` (`client-parts.ts`); reads
 * are the `ClientReader`'s, `publish` the `Publisher`'s, `flush` is
 * `flushClient`. A call reaches the wire through `op` → `Tracer` →
 * `Pipeline` → `Batcher` (see docs/architecture.md).
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
  readonly #parts: ClientParts;
  #closed = false;
  #shutdown: Promise<FlushResult> | undefined;
  readonly #leaveExit: () => void;

  /** @internal Use `weft.init` (a stripped public constructor would read as `new WeftClient()`). */
  static create(options: ResolvedOptions, sinkFactory?: SinkFactory): WeftClient {
    return new WeftClient(options, sinkFactory);
  }

  private constructor(options: ResolvedOptions, sinkFactory?: SinkFactory) {
    this.#options = options;
    this.project = options.project;
    const parts = wireClient(options, this, sinkFactory && (() => sinkFactory(this)));
    this.#parts = parts;
    this.url = parts.api.url;
    this.op = makeOp(() => (this.#closed ? undefined : parts.tracer));
    parts.loopLag.start();
    this.#leaveExit = joinExit(parts, this.project, options);
    trackClient(this, true);
  }

  /** @internal The tracer ops of this client run on (undefined after shutdown). */
  get tracer(): Tracer | undefined {
    return this.#closed ? undefined : this.#parts.tracer;
  }

  /**
   * @internal This client's redaction rules and value limits without its
   * object and file hooks: for values written outside calls (evaluation
   * checkpoints), so they are redacted exactly as call records are.
   */
  get valueRules(): SanitizeOptions {
    return this.#parts.values.withoutHooks;
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
  async flush(options: FlushOptions = {}): Promise<FlushResult> {
    return flushClient(this.#parts, flushTimeoutMs(options));
  }

  /**
   * Wraps a request handler so its promise settles, with the handler's result
   * or error unchanged, only once the calls it traced are acknowledged, or at
   * `timeoutMs` kept in the outbox. See `weft.withFlush`, docs/serverless.md.
   */
  withFlush<Args extends unknown[], Result>(
    handler: (...args: Args) => Result,
    options: WithFlushOptions = {},
  ): (...args: Args) => Promise<Awaited<Result>> {
    return withFlush(handler, options, this);
  }

  /**
   * Flushes (with `timeoutMs`, default the exit deadline), then closes the
   * transport and the outbox. Later calls of this client's ops run untraced.
   * Idempotent: a second call joins the first.
   */
  shutdown(options: FlushOptions = {}): Promise<FlushResult> {
    this.#shutdown ??= (async () => {
      const result = await flushClient(this.#parts, options.timeoutMs ?? this.#options.exitTimeoutMs);
      this.#closed = true;
      this.#leaveExit();
      trackClient(this, false);
      await closeParts(this.#parts);
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
    return this.#parts.publisher.publish(value, options);
  }

  /**
   * Reads the value a ref points to: an object version's value (nested
   * objects stay as their ref URIs; call `get` on them to follow), a call,
   * a file's bytes (`Uint8Array`), a table as a lazy `RemoteDataset`
   * (rows fetched page by page as you iterate), or one table row
   * (`…/table/<digest>/row/<row digest>`) as its value.
   */
  get(ref: string | ObjectRef): Promise<unknown> {
    return this.#parts.reader.get(ref);
  }

  /**
   * Points `label` (`production`, `staging`) of an object name at the version
   * `ref` names — an {@link ObjectRef}, a `weft:///` object ref, or
   * `'Name:v3'` / `'Name:<digest>'` / `'Name:<other label>'` — moving it if it
   * was set. Afterwards `get('Name:<label>')` reads that version.
   */
  async setLabel(ref: string | ObjectRef, label: string): Promise<ObjectLabel> {
    if (this.#closed) throw new ClientClosedError('setLabel');
    return this.#parts.reader.setLabel(ref, label);
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
    return this.#parts.feedback.send(callId, feedback);
  }

  /** The calls matching `options`, fetched page by page as they are iterated. */
  getCalls(options: GetCallsOptions = {}): CallPages {
    return this.#parts.reader.getCalls(options);
  }

  /** One call by id with its inputs, output, summary, exception and timestamps; `undefined` when the server has none. */
  getCall(id: string): Promise<Call | undefined> {
    return this.#parts.reader.getCall(id);
  }

  /**
   * What tracing costs and where work stands: event-loop lag (10 Hz samples,
   * cumulative since init or the last `{ resetLoopLag: true }` read), pool,
   * pipeline and batcher gauges, objects, outbox, problems reported.
   */
  diagnostics(options: { resetLoopLag?: boolean } = {}): Diagnostics {
    return readDiagnostics(this.#parts, options.resetLoopLag === true);
  }
}
