import {
  type Call,
  collectValueRefs,
  digestValue,
  findStep,
  type StoredValueNode,
  type TraceNode,
  type TraceTree,
  traceTree,
} from '@weft/protocol';
import { LRUCache } from 'lru-cache';
import type { WeftClient } from '../client/index.js';
import { expandRecorded, type RecordedValues } from './recorded-values.js';
import { ReplayNotFoundError } from './replay-errors.js';

/** How many recorded traces each client keeps loaded (a replay and its forks read one trace again and again). */
const TRACES_KEPT = 16;

/** Stands for a recorded output whose values were not read (the call is not served: it runs live). */
export const NOT_LOADED: unique symbol = Symbol('not loaded');

/**
 * A trace as recorded on the server, as a tree of its calls whose values are
 * the server's markers (`values: 'digests'`), with the values read by digest
 * ({@link load}) only for the inputs and outputs a replay needs, and each
 * call's inputs digest computed once.
 */
export class RecordedTrace {
  readonly traceId: string;
  readonly tree: TraceTree<Call>;
  readonly root: TraceNode<Call>;
  readonly #digests = new Map<TraceNode<Call>, string>();
  /** The stored values read so far, by digest, and what they expand to. */
  readonly #held = new Map<string, StoredValueNode>();
  readonly #expanded = new Map<string, unknown>();
  readonly #outputsLoaded = new Set<TraceNode<Call>>();
  #inputsLoaded = false;

  constructor(traceId: string, calls: readonly Call[]) {
    this.traceId = traceId;
    this.tree = traceTree(calls);
    const root = this.tree.byId.get(traceId) ?? this.tree.roots[0];
    if (root === undefined) throw new ReplayNotFoundError(`Trace ${traceId} has no calls.`);
    this.root = root;
  }

  /**
   * Reads the values the replay needs that this trace has not read yet: the
   * inputs of every call (each call is matched by its inputs), and the
   * outputs of `outputs` (the calls the replay may serve).
   */
  async load(values: RecordedValues, outputs: Iterable<TraceNode<Call>>): Promise<void> {
    const digests = new Set<string>();
    const inputs = !this.#inputsLoaded;
    if (inputs) for (const node of this.tree.nodes) collectValueRefs(node.call.inputs, digests);
    const newOutputs = [...outputs].filter((node) => !this.#outputsLoaded.has(node));
    for (const node of newOutputs) collectValueRefs(node.call.output, digests);
    for (const digest of this.#held.keys()) digests.delete(digest);
    if (digests.size > 0)
      for (const [digest, node] of await values.load(digests)) this.#held.set(digest, node);
    if (inputs) this.#inputsLoaded = true;
    for (const node of newOutputs) this.#outputsLoaded.add(node);
  }

  /** A recorded call's inputs, its values expanded (those {@link load} read). */
  inputsOf(node: TraceNode<Call>): unknown {
    return expandRecorded(node.call.inputs, this.#held, this.#expanded);
  }

  /** A recorded call's output, its values expanded, or {@link NOT_LOADED} when {@link load} was not asked for it. */
  outputOf(node: TraceNode<Call>): unknown {
    if (!this.#outputsLoaded.has(node)) return NOT_LOADED;
    return expandRecorded(node.call.output, this.#held, this.#expanded);
  }

  /** The digest of a recorded call's inputs (as the read API returns them, values expanded). */
  inputsDigest(node: TraceNode<Call>): string {
    let digest = this.#digests.get(node);
    if (digest === undefined) {
      digest = inputsDigest(this.inputsOf(node));
      this.#digests.set(node, digest);
    }
    return digest;
  }

  /** The call at a step: a call id of this trace, or a step path (`agent/step[12]/llm`). */
  step(step: string): TraceNode<Call> {
    const node = findStep(this.tree, step);
    if (node === undefined) {
      const paths = this.tree.nodes
        .slice(0, 5)
        .map((n) => n.path)
        .join(', ');
      throw new ReplayNotFoundError(
        `Trace ${this.traceId} has no step ${JSON.stringify(step)}: give a call id of the trace or a step path such as ${paths}${this.tree.nodes.length > 5 ? ', …' : ''}.`,
      );
    }
    return node;
  }
}

/** The digest inputs are matched by: of their JSON-like safe form (what the read API returns). */
export function inputsDigest(inputs: unknown): string {
  try {
    return digestValue(inputs);
  } catch {
    // Not canonical JSON (cannot happen for values read from the server): compare by its JSON text.
    return `json:${JSON.stringify(inputs)}`;
  }
}

const loaded = new WeakMap<WeftClient, LRUCache<string, Promise<RecordedTrace>>>();

/**
 * The recorded trace `traceId` of the client's project, its calls read from
 * the server once (their values as digests: see {@link RecordedTrace.load})
 * and kept for the next replay or fork of it.
 * @throws {ReplayNotFoundError} when the server has no call of that trace
 */
export function loadRecordedTrace(client: WeftClient, traceId: string): Promise<RecordedTrace> {
  let traces = loaded.get(client);
  if (traces === undefined) {
    traces = new LRUCache({ max: TRACES_KEPT });
    loaded.set(client, traces);
  }
  let trace = traces.get(traceId);
  if (trace === undefined) {
    trace = fetchTrace(client, traceId);
    traces.set(traceId, trace);
    // A failed read is not kept: the trace may arrive later.
    const kept = traces;
    trace.catch(() => kept.delete(traceId));
  }
  return trace;
}

async function fetchTrace(client: WeftClient, traceId: string): Promise<RecordedTrace> {
  const calls = await client
    .getCalls({ traceId, pageSize: 1_000, sort: { field: 'startedAt', direction: 'asc' }, values: 'digests' })
    .toArray();
  if (calls.length === 0) {
    throw new ReplayNotFoundError(
      `No trace ${traceId} in project ${client.project}: give the id of a recorded trace (its root call's id), and flush the run that recorded it first.`,
    );
  }
  return new RecordedTrace(traceId, calls);
}
