import type {
  Call,
  CallItem,
  CallQueryParsed,
  CallQueryResponse,
  ObjectCreateResponse,
  ObjectKind,
  ObjectListResponse,
  ObjectRead,
  ObjectVersion,
  TableCreateResponse,
  TableRowsResponse,
} from '@weft/protocol';

/** Which version of a named object to read. */
export type VersionSelector = { digest: string } | { latest: true } | { version: number };

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
  /** A page of calls whose start has arrived, with an opaque keyset cursor. */
  queryCalls(query: CallQueryParsed): Promise<CallQueryResponse>;
  /** One call, or `undefined` when unknown or its start has not arrived. */
  readCall(project: string, id: string): Promise<Call | undefined>;

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
