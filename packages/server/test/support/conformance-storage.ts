import { rm } from 'node:fs/promises';
import { callQuery, type CallQuery, type CallQueryParsed } from '@weft/protocol';
import { tempDir } from '@weft/test-server';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import type { Storage } from '../../src/index.js';
import { openStorage, type StorageTarget } from '../../src/storage/index.js';
import { freshTestStorageTarget, testStorageKind } from './test-storage.js';

/** The engine a conformance file runs against, shared by its tests; each test takes a project of its own. */
export interface ConformanceStore {
  /** The engine's name, for test titles. */
  readonly engine: string;
  /** The file's store (opened in `beforeAll`). */
  readonly storage: Storage;
  /** A project no other test of the run uses. */
  project(): string;
  /** Another instance of the engine over the same data (closed when the test ends): what a second replica sees. */
  reopen(): Promise<Storage>;
}

let projects = 0;

/**
 * Opens the engine the vitest project selects (`WEFT_TEST_STORAGE`: SQLite in
 * `server`, ClickHouse in `server-clickhouse`) once for the calling file, and
 * closes it after. Tests talk to it through the `Storage` interface only:
 * the contract is what they check, so every engine runs the same file.
 */
export function useConformanceStore(): ConformanceStore {
  let dir: string | undefined;
  let target: StorageTarget | undefined;
  let storage: Storage | undefined;
  beforeAll(async () => {
    dir = await tempDir('weft-conformance-');
    target = freshTestStorageTarget(dir);
    storage = await openStorage(target);
  });
  afterAll(async () => {
    await storage?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });
  return {
    engine: testStorageKind(),
    get storage() {
      if (storage === undefined) throw new Error('the conformance store opens in beforeAll');
      return storage;
    },
    project: () => `conformance-${process.pid}-${++projects}`,
    async reopen() {
      const again = await openStorage(target as StorageTarget);
      onTestFinished(() => again.close());
      return again;
    },
  };
}

/** A call query as the HTTP layer hands it to storage (defaults applied by the protocol's schema). */
export function parsedQuery(query: CallQuery): CallQueryParsed {
  return callQuery.parse(query);
}

/** Every call of a query, page by page (`limit` per page), in the order the pages give them. */
export async function allPages(storage: Storage, query: CallQuery): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1_000; page++) {
    const answer = await storage.queryCalls(parsedQuery({ ...query, ...(cursor ? { cursor } : {}) }));
    ids.push(...answer.calls.map((call) => call.id));
    if (answer.nextCursor === null) return ids;
    cursor = answer.nextCursor;
  }
  throw new Error('more than 1,000 pages: the cursor does not advance');
}
