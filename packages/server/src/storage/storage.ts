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
} from '@weft/protocol';
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
 * Everything the HTTP layer needs from a storage engine. Digests are verified
 * before these methods are called, so engines only store and retrieve.
 * SQLite stands behind it by default; other engines implement the same
 * contract (see `SqliteStorage` for the semantics each method must keep).
 */
export interface Storage {
  /**
   * Idempotent upsert by (project, id) of a batch, atomically: a start and an
   * end may arrive in either order, twice, or together, and neither side's
   * fields are ever overwritten by the other's absence.
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
   * A page of calls whose start has arrived, with an opaque keyset cursor.
   * Engines answer every filter of `CallQuery`: `sessionId`, `attributes`
   * (ANDed equality; an array attribute matches by element), `userId`
   * (attribute `user.id`), `tag` (elements of attribute `tags`), `feedback`
   * and `text` (full-text over names, inputs and output, with a `snippet` per
   * call). Each call carries its `feedback` (empty array when none).
   */
  queryCalls(query: CallQueryParsed): Promise<CallQueryResponse>;
  /** One call with its `feedback`, or `undefined` when unknown or its start has not arrived. */
  readCall(project: string, id: string): Promise<Call | undefined>;

  /*
   * Capabilities added with feedback, sessions and labels (issue 15). They
   * are optional so an engine can be merged before it implements them; the
   * routes answer `WEFT_NOT_SUPPORTED` (501) for an engine without one.
   */

  /**
   * Stores feedback items once per (project, id), whether or not their call
   * has arrived (feedback is attached whenever the call is read). Returns how
   * many were new.
   */
  putFeedback?(project: string, items: readonly FeedbackItem[]): Promise<{ stored: number }>;
  /** A call's feedback, oldest first; empty when none (also for an unknown call). */
  listFeedback?(project: string, callId: string): Promise<Feedback[]>;
  /** A page of sessions, most recently active first (see `sessionSummary` for what the totals count). */
  querySessions?(query: SessionQueryParsed): Promise<SessionQueryResponse>;
  /** Every project with calls or objects, by name. */
  listProjects?(): Promise<ProjectListResponse['projects']>;
  /**
   * Points a label of an object name at one of its versions, moving it when
   * set already. `undefined` when that version does not exist.
   */
  setObjectLabel?(
    project: string,
    name: string,
    label: string,
    version: { version: number } | { digest: string },
  ): Promise<ObjectLabel | undefined>;
  /** The labels of an object name, by label. */
  listObjectLabels?(project: string, name: string): Promise<ObjectLabel[]>;

  /**
   * Deduplicated call values (issue 13), verified against their digests
   * before these are called. Optional like the capabilities above: without
   * them a batch carrying value items is answered `WEFT_NOT_SUPPORTED`.
   */

  /** Stores values once per (project, digest); returns how many were new. */
  putValues?(project: string, values: readonly StoredValue[]): Promise<{ stored: number }>;
  /** The stored values among `digests`, by digest; never another project's. */
  readValues?(project: string, digests: readonly string[]): Promise<Map<string, StoredValue>>;
  /** The subset of `digests` this project stores. */
  knownValues?(project: string, digests: readonly string[]): Promise<string[]>;

  /** Stores a version (numbered from 1 per name); a known digest is a no-op returning it. */
  putObject(object: ObjectPut): Promise<ObjectCreateResponse>;
  readObject(project: string, name: string, selector: VersionSelector): Promise<ObjectRead | undefined>;
  /** Versions of one name, oldest first; empty when the name is unknown. */
  listObjectVersions(project: string, name: string): Promise<ObjectVersion[]>;
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
  readTableRows(
    project: string,
    digest: string,
    offset: number,
    limit: number,
  ): Promise<TableRowsResponse | undefined>;

  /** Stores bytes under their digest once; returns whether they were new. */
  putFile(project: string, digest: string, bytes: Uint8Array): Promise<{ created: boolean }>;
  readFile(project: string, digest: string): Promise<Uint8Array | undefined>;

  /** Flushes and releases the engine; idempotent. */
  close(): Promise<void>;
}
