import type {
  Call,
  CallItem,
  CallQueryParsed,
  CallQueryResponse,
  FeedbackItem,
  Feedback,
  ObjectCreateResponse,
  ObjectLabel,
  ObjectKind,
  ObjectListResponse,
  ObjectRead,
  ObjectVersion,
  TableCreateResponse,
  ProjectListResponse,
  SessionQueryParsed,
  SessionQueryResponse,
  TableRowsResponse,
  TraceColumnsResponse,
} from '@weft/protocol';
import type { LifecycleStorage } from './lifecycle-storage.js';
import type { MonitorStateStorage, RollupStorage } from './monitor-storage.js';
import type { SpanCallPut } from './span-usage.js';
import type { StoredValue } from './stored-value.js';

/** Which version of a named object to read: by digest, the newest, by number, or the one a label points at. */
export type VersionSelector = { digest: string } | { latest: true } | { version: number } | { label: string };

/** A new object version whose digest the caller has already verified. */
export interface ObjectPut {
  project: string;
  name: string;
  kind: ObjectKind;
  digest: string;
  /** `canonicalJson(value)`: the bytes the digest was taken of. */
  canonicalValue: string;
}

/** A table whose digests the caller has already computed from the rows. */
export interface TablePut {
  project: string;
  digest: string;
  /** Every row of the table, in order. */
  rowDigests: readonly string[];
  /** Contents of rows that may not be stored yet; rows are stored once per digest. */
  rows: readonly { digest: string; canonicalValue: string }[];
}

/**
 * Everything the HTTP layer needs from a storage engine: THE contract.
 * SQLite (`SqliteStorage`, the embedded default) and ClickHouse
 * (`ClickHouseStorage`, for scale) implement it; the conformance suite
 * (`packages/server/test/storage-conformance/`) runs the same tests against
 * every engine through this interface, so an engine that departs from a rule
 * below fails there, next to its cause. Digests are verified before these
 * methods are called, so engines only store and retrieve. Every method is
 * required.
 *
 * **Re-sent records are idempotent.** Clients retry, replicas race and
 * outboxes replay, so every write may arrive again:
 * - a call is upserted by (project, id) from its halves: a start (the
 *   `start` fields) and an end (the `end` fields; a `complete` record is
 *   both). The halves may arrive in either order, in one batch or many,
 *   each any number of times; a half never erases the other's fields, and a
 *   half that arrives again replaces that half (the later write wins);
 * - feedback, values, table rows and files are stored once per key
 *   ((project, id) for feedback, (project, digest) for the rest): a repeat
 *   keeps what was stored first and is not counted as new;
 * - an object version or a table whose digest is stored is a no-op that
 *   answers as the first put did (with `created: false` for objects).
 *
 * **A read follows a write.** Once a write's promise resolves, every read
 * (from this instance or another over the same data) sees it.
 *
 * **Text matching** (`CallQuery.text`). The searchable text of a call is its
 * display name, its plain op name, the string leaves of its inputs and of
 * its output (or its exception's message), each cut at `MAX_SEARCH_CHARS`
 * (`search-text.ts`). Text and query are folded the same way (`foldText`:
 * case folded, diacritics removed, so `CAFÉ` finds `café` and `cafe`) and cut
 * into words (`searchWords`: runs of letters, digits and private-use
 * characters, at most 16). A call matches when EVERY word occurs in its text
 * as a whole word (no prefix, no substring). Everything else the user typed
 * (quotes, `*`, `:`, `-`, `AND`, `NEAR`…) only separates words: there is no
 * query syntax. A text without any word (only punctuation) matches calls
 * whose display name or plain op name contains it as a substring, ASCII
 * letters compared case-insensitively. A matching call carries a `snippet`: a
 * passage of its searchable text with the matched words flagged
 * (`match: true`); which passage is the engine's choice.
 *
 * **Sort keys and cursors.** A call page is ordered by one key, then by id
 * (ties), both in the sort's direction: `startedAt` (ms); `latencyMs`
 * (`summary.latencyMs` when the end gave it, else `endedAt - startedAt`, and
 * -1 while the call runs); `opName` (the plain op name, then `startedAt`).
 * Strings compare by their UTF-8 bytes. `nextCursor` is `encodeCursor(sort,
 * { key, id })` of the page's last call (`sort` is `field:direction`; `key` a
 * number, or `[opName, startedAt]`), so a cursor made by one engine instance
 * continues in another; a page is the calls strictly after the cursor, so
 * paging visits each call once. A cursor of another sort, or one not made by
 * `encodeCursor`, is refused with `WEFT_INVALID_REQUEST` at `cursor`.
 *
 * **Orders of lists.** Object names, labels and projects are listed by their
 * UTF-8 bytes; an object's versions are numbered from 1 in the order their
 * digests were first stored, and listed oldest first; feedback is listed by
 * `createdAt`, then in the order it was stored.
 */
export interface Storage {
  /**
   * Upserts a batch of call records (see "Re-sent records are
   * idempotent"). A record that cannot be encoded fails the whole batch with
   * `WEFT_INVALID_REQUEST` at `items.<index>`, and nothing of it is stored.
   */
  ingestCalls(project: string, items: readonly CallItem[]): Promise<{ accepted: number }>;
  /**
   * Stores calls made from OTLP spans like `ingestCalls`, keeping each
   * span's own usage apart, then rolls usage up their traces: each stored
   * call and each ancestor made from a span gets `summary.usage` and
   * `costUsd` totalling its own usage and its children's (`rollUpUsage`).
   * Totals are recomputed, never incremented: spans may arrive in any order,
   * over many requests, and again. Calls the SDK recorded are never changed.
   * A call that cannot be encoded fails the batch like `ingestCalls`.
   */
  ingestSpanCalls(project: string, spans: readonly SpanCallPut[]): Promise<{ accepted: number }>;
  /**
   * A page of calls whose start has arrived (see "Sort keys and cursors").
   * Filters, all ANDed: `traceId`; `parentId` (`null`: roots only);
   * `opName` (a plain name matches every version of the op, a ref that
   * version only; several names: any); `status` (`running` until the end
   * arrives; `error` when the end has an exception or an error status);
   * `startedAfter` (inclusive) and `startedBefore` (exclusive); `sessionId`;
   * `attributes` (equality per key, typed: `2` is not `'2'`; nested objects
   * as dotted keys; an array matches by element); `userId` (attribute
   * `user.id`); `tag` (elements of attribute `tags`); `feedback` (calls with
   * a feedback item of that name and value); `text` (see "Text matching").
   * Each call carries its `feedback` (empty array when none).
   */
  queryCalls(query: CallQueryParsed): Promise<CallQueryResponse>;
  /** One call with its `feedback`, or `undefined` when unknown or its start has not arrived. */
  readCall(project: string, id: string): Promise<Call | undefined>;
  /**
   * Every call of a trace whose start has arrived, by `startedAt` then id:
   * light, for the trace view's tree (`inputs` is `{}` and `output` `null`
   * whatever they hold, no `feedback`; read a call's values with
   * `readCall`). One read keyed by the trace, not pages. Equal attribute,
   * summary or exception values of several calls may be one shared object:
   * read the calls, do not change them. At most `limit` calls, the first
   * in start order: a trace can hold millions (an evaluation's), and one
   * answer must stay bounded.
   */
  traceCalls(project: string, traceId: string, limit: number): Promise<Call[]>;

  /**
   * The calls `traceCalls` gives, as one array per field: a
   * `traceColumnsResponse` (of at most `limit` calls, `truncated` when the
   * trace holds more) whose attribute markers are not expanded yet. What the
   * trace view loads: an engine may fill the columns from its rows without
   * an object per call. The same calls give the same answer as
   * `traceColumnsOf` (in `@weft/protocol`) of `traceCalls`.
   */
  traceColumns(project: string, traceId: string, limit: number): Promise<TraceColumnsResponse>;

  /**
   * Stores feedback items once per (project, id), whether or not their call
   * has arrived (feedback is attached whenever the call is read). Returns how
   * many were new.
   */
  putFeedback(project: string, items: readonly FeedbackItem[]): Promise<{ stored: number }>;
  /** A call's feedback, oldest first; empty when none (also for an unknown call). */
  listFeedback(project: string, callId: string): Promise<Feedback[]>;
  /**
   * A page of sessions, most recently active first (last activity: the
   * latest `endedAt`, or `startedAt` of a running call), ties by session id
   * descending, keyset-paged like calls. `turns`, `totalTokens` and `costUsd`
   * count root calls only (a root's summary includes its descendants);
   * `errors` counts every call; `costUsd` is absent when no root has a cost.
   */
  querySessions(query: SessionQueryParsed): Promise<SessionQueryResponse>;
  /** Every project with calls (whose start arrived) or objects, by name. */
  listProjects(): Promise<ProjectListResponse['projects']>;
  /**
   * Points a label of an object name at one of its versions, moving it when
   * set already. `undefined` when that version does not exist.
   */
  setObjectLabel(
    project: string,
    name: string,
    label: string,
    version: { version: number } | { digest: string },
  ): Promise<ObjectLabel | undefined>;
  /** The labels of an object name, by label. */
  listObjectLabels(project: string, name: string): Promise<ObjectLabel[]>;

  /** Stores deduplicated call values once per (project, digest); returns how many were new. */
  putValues(project: string, values: readonly StoredValue[]): Promise<{ stored: number }>;
  /** The stored values among `digests`, by digest; never another project's. */
  readValues(project: string, digests: readonly string[]): Promise<Map<string, StoredValue>>;
  /** The subset of `digests` this project stores. */
  knownValues(project: string, digests: readonly string[]): Promise<string[]>;

  /** Stores a version (numbered from 1 per name); a known digest is a no-op returning it. */
  putObject(object: ObjectPut): Promise<ObjectCreateResponse>;
  /** A version by digest, number, label or the latest; `undefined` when there is none. */
  readObject(project: string, name: string, selector: VersionSelector): Promise<ObjectRead | undefined>;
  /** Versions of one name, oldest first; empty when the name is unknown. */
  listObjectVersions(project: string, name: string): Promise<ObjectVersion[]>;
  /** Every object name of a project, by name, with its latest version. */
  listObjects(project: string): Promise<ObjectListResponse['objects']>;

  /** Stores a table (a no-op when its digest exists). */
  putTable(table: TablePut): Promise<TableCreateResponse>;
  /** Stores rows (already verified against their digests) once per project; returns how many were new. */
  putTableRows(
    project: string,
    rows: readonly { digest: string; canonicalValue: string }[],
  ): Promise<{ stored: number }>;
  /** The subset of `digests` whose rows this project stores, in the order asked; never another project's. */
  knownTableRows(project: string, digests: readonly string[]): Promise<string[]>;
  /** Row digests of a table in order, or `undefined` when unknown. */
  tableRowDigests(project: string, digest: string): Promise<string[] | undefined>;
  /**
   * Rows `offset` … `offset + limit - 1` of a table in order, with its
   * `rowCount`; a row whose value is not stored is left out. `undefined` when
   * the table is unknown.
   */
  readTableRows(
    project: string,
    digest: string,
    offset: number,
    limit: number,
  ): Promise<TableRowsResponse | undefined>;

  /** Stores bytes under their digest once; returns whether they were new. */
  putFile(project: string, digest: string, bytes: Uint8Array): Promise<{ created: boolean }>;
  /** The bytes stored under a digest, or `undefined`. */
  readFile(project: string, digest: string): Promise<Uint8Array | undefined>;

  /**
   * Metrics rollups (kept by the ingest methods above) and monitoring
   * documents and logs (issue 29): see `monitor-storage.ts` for the contract.
   */
  readonly monitoring: MonitorStorage;

  /**
   * Retention and deletion on request, by whole traces (issue 28): see
   * `lifecycle-storage.ts` for the contract.
   */
  readonly lifecycle: LifecycleStorage;

  /** Flushes and releases the engine; idempotent. */
  close(): Promise<void>;
}

/** What monitoring (metrics, evaluators, alerts, dashboards) needs of an engine. */
export type MonitorStorage = RollupStorage & MonitorStateStorage;
