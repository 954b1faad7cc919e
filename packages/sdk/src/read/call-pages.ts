import { type Call, type CallQuery, callQueryResponse, routes } from '@weft/protocol';
import type { ApiClient } from '../transport/index.js';

/** Filters of `client.getCalls`. */
export interface GetCallsOptions {
  traceId?: string;
  /** A call id for its children; `null` for root calls only. */
  parentId?: string | null;
  opName?: string | string[];
  status?: CallQuery['status'];
  startedAfter?: number;
  startedBefore?: number;
  /** Full-text search over display names, op names, inputs and outputs (see `CallQuery.text`). */
  text?: string;
  /** Calls of this session (see `withSession`). */
  sessionId?: string;
  /** Attribute equality, every pair ANDed; an array attribute matches by element. */
  attributes?: Record<string, string | number | boolean>;
  /** Calls whose attribute `user.id` is this. */
  userId?: string;
  /** Calls whose `tags` attribute holds this tag (or all of these). */
  tag?: string | string[];
  /** Calls with feedback: `{}` any, `{ name }`, or `{ name, value }`. */
  feedback?: CallQuery['feedback'];
  sort?: CallQuery['sort'];
  /**
   * `digests`: deduplicated values stay as their markers (`{ _weft: 'value',
   * digest }`), for a reader that fetches each value once by digest (as a
   * replay does). @default 'resolved' (every value expanded)
   */
  values?: CallQuery['values'];
  /** Calls per request. @default 100 (at most 1,000) */
  pageSize?: number;
  /** Stop after this many calls in total. @default no limit */
  limit?: number;
}

/**
 * The calls matching a query, fetched page by page as you iterate
 * (`for await (const call of client.getCalls(…))`), or page by page with
 * `.pages()`. Nothing is fetched until iteration starts. `client.getCalls`
 * makes one; there is nothing else to construct it from.
 */
export interface CallPages extends AsyncIterable<Call> {
  /** Each page as an array of calls. */
  pages(): AsyncGenerator<Call[]>;
  /** Each matching call, in the query's order. */
  [Symbol.asyncIterator](): AsyncGenerator<Call>;
  /** Collects every matching call into an array (mind `limit` for large projects). */
  toArray(): Promise<Call[]>;
}

/** {@link CallPages} over the server's call query, through the client's API connection. */
export class CallQueryPages implements CallPages {
  readonly #api: ApiClient;
  readonly #project: string;
  readonly #options: GetCallsOptions;

  constructor(api: ApiClient, project: string, options: GetCallsOptions) {
    this.#api = api;
    this.#project = project;
    this.#options = options;
  }

  /** Each page as an array of calls. */
  async *pages(): AsyncGenerator<Call[]> {
    const { pageSize = 100, limit = Number.POSITIVE_INFINITY, ...filters } = this.#options;
    let cursor: string | undefined;
    let seen = 0;
    while (seen < limit) {
      const query: CallQuery = {
        ...filters,
        project: this.#project,
        limit: Math.min(pageSize, 1_000, limit - seen),
        ...(cursor === undefined ? {} : { cursor }),
      };
      const page = await this.#api.postJson(routes.callQuery(), query, callQueryResponse);
      seen += page.calls.length;
      if (page.calls.length > 0) yield page.calls;
      if (page.nextCursor === null || page.calls.length === 0) return;
      cursor = page.nextCursor;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Call> {
    for await (const page of this.pages()) yield* page;
  }

  /** Collects every matching call into an array (mind `limit` for large projects). */
  async toArray(): Promise<Call[]> {
    const all: Call[] = [];
    for await (const page of this.pages()) all.push(...page);
    return all;
  }
}
