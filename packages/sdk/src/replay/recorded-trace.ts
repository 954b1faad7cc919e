import { type Call, digestValue, findStep, type TraceNode, type TraceTree, traceTree } from '@weft/protocol';
import { LRUCache } from 'lru-cache';
import type { WeftClient } from '../client/index.js';
import { ReplayNotFoundError } from './replay-errors.js';

/** How many recorded traces each client keeps loaded (a replay and its forks read one trace again and again). */
const TRACES_KEPT = 16;

/** A trace as recorded on the server, as a tree of its calls, with each call's inputs digest computed once. */
export class RecordedTrace {
  readonly traceId: string;
  readonly tree: TraceTree<Call>;
  readonly root: TraceNode<Call>;
  readonly #digests = new Map<TraceNode<Call>, string>();

  constructor(traceId: string, calls: readonly Call[]) {
    this.traceId = traceId;
    this.tree = traceTree(calls);
    const root = this.tree.byId.get(traceId) ?? this.tree.roots[0];
    if (root === undefined) throw new ReplayNotFoundError(`Trace ${traceId} has no calls.`);
    this.root = root;
  }

  /** The digest of a recorded call's inputs (as the read API returns them). */
  inputsDigest(node: TraceNode<Call>): string {
    let digest = this.#digests.get(node);
    if (digest === undefined) {
      digest = inputsDigest(node.call.inputs);
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
 * The recorded trace `traceId` of the client's project, read from the
 * server once (its values come expanded) and kept for the next replay or
 * fork of it.
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
    .getCalls({ traceId, pageSize: 1_000, sort: { field: 'startedAt', direction: 'asc' } })
    .toArray();
  if (calls.length === 0) {
    throw new ReplayNotFoundError(
      `No trace ${traceId} in project ${client.project}: give the id of a recorded trace (its root call's id), and flush the run that recorded it first.`,
    );
  }
  return new RecordedTrace(traceId, calls);
}
