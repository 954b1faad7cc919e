import {
  collectValueRefs,
  expandStoredValues,
  expandValueRefs,
  MAX_VALUES_PER_READ,
  routes,
  type StoredValueNode,
  type ValueReadItem,
  valueReadResponse,
} from '@weft/protocol';
import { LRUCache } from 'lru-cache';
import type { WeftClient } from '../client/index.js';
import { InvalidOptionsError } from '../errors/index.js';
import { apiOf } from '../read/index.js';

/** Bytes of recorded values (as JSON text) each client keeps for its next replays. */
const VALUES_KEPT_BYTES = 64 * 1024 * 1024;

function nodeOf(item: ValueReadItem): StoredValueNode {
  return item.kind === 'value'
    ? { isArray: false, prev: undefined, decoded: item.value }
    : { isArray: true, prev: item.prev, decoded: item.items };
}

/** The digests a stored value refers to: its markers, and an array's `prev`. */
function refsOf(node: StoredValueNode, into: Set<string>): void {
  if (node.prev !== undefined) into.add(node.prev);
  collectValueRefs(node.decoded, into);
}

/**
 * Recorded values, read from the server by digest (`POST /v1/values/read`)
 * and kept per client (bounded, least recently used first out), so each
 * digest is fetched once however many calls, replays and forks need it.
 */
export class RecordedValues {
  readonly #client: WeftClient;
  readonly #kept = new LRUCache<string, StoredValueNode>({
    maxSize: VALUES_KEPT_BYTES,
    sizeCalculation: (node) => Math.max(1, JSON.stringify(node.decoded)?.length ?? 1),
  });
  /** Digests asked for and not answered yet: a second reader waits for the same answer. */
  readonly #asking = new Map<string, Promise<StoredValueNode | undefined>>();

  constructor(client: WeftClient) {
    this.#client = client;
  }

  /**
   * The stored values of `digests` and of every value they refer to (nested
   * markers, an array's `prev` chain): those kept already, the others asked
   * for in batches, one round per level. A digest the server does not store
   * is left out (its marker stays visible, as in every read).
   */
  async load(digests: Iterable<string>): Promise<Map<string, StoredValueNode>> {
    const held = new Map<string, StoredValueNode>();
    let frontier = new Set(digests);
    const looked = new Set<string>();
    while (frontier.size > 0) {
      const toAsk: string[] = [];
      const waits: Promise<void>[] = [];
      for (const digest of frontier) {
        looked.add(digest);
        const kept = this.#kept.get(digest);
        if (kept !== undefined) {
          held.set(digest, kept);
          continue;
        }
        const asking = this.#asking.get(digest);
        if (asking !== undefined) {
          waits.push(asking.then((node) => void (node === undefined ? undefined : held.set(digest, node))));
        } else toAsk.push(digest);
      }
      for (let i = 0; i < toAsk.length; i += MAX_VALUES_PER_READ) {
        waits.push(this.#ask(toAsk.slice(i, i + MAX_VALUES_PER_READ), held));
      }
      await Promise.all(waits);
      const next = new Set<string>();
      for (const digest of frontier) {
        const node = held.get(digest);
        if (node !== undefined) refsOf(node, next);
      }
      frontier = new Set([...next].filter((digest) => !looked.has(digest)));
    }
    return held;
  }

  /** Asks the server for `digests` (one request), keeps and holds what it answers. */
  async #ask(digests: string[], held: Map<string, StoredValueNode>): Promise<void> {
    const api = apiOf(this.#client);
    if (api === undefined) {
      throw new InvalidOptionsError(
        'client',
        'replay: the client has no server connection to read the recorded values from (a client made by init with a url).',
      );
    }
    const answer = api.postJson(
      routes.valueRead(),
      { project: this.#client.project, digests },
      valueReadResponse,
    );
    const nodes = answer.then(
      (response) => new Map(response.values.map((item) => [item.digest, nodeOf(item)] as const)),
    );
    for (const digest of digests) {
      const node = nodes.then((found) => found.get(digest));
      // Whoever waits for it sees the failure; unawaited, it is not an unhandled rejection.
      node.catch(() => {});
      this.#asking.set(digest, node);
    }
    try {
      const found = await nodes;
      for (const [digest, node] of found) {
        this.#kept.set(digest, node);
        held.set(digest, node);
      }
    } finally {
      for (const digest of digests) this.#asking.delete(digest);
    }
  }
}

const byClient = new WeakMap<WeftClient, RecordedValues>();

/** The recorded values `client` keeps, shared by all its replays. */
export function recordedValuesOf(client: WeftClient): RecordedValues {
  let values = byClient.get(client);
  if (values === undefined) {
    values = new RecordedValues(client);
    byClient.set(client, values);
  }
  return values;
}

/** `value` with the markers whose values `held` has expanded (`memo` keeps what was expanded, across calls). */
export function expandRecorded(
  value: unknown,
  held: ReadonlyMap<string, StoredValueNode>,
  memo: Map<string, unknown>,
): unknown {
  const refs = collectValueRefs(value, new Set());
  if (refs.size === 0) return value;
  return expandValueRefs(
    value,
    expandStoredValues(refs, (digest) => held.get(digest), memo),
  );
}
