import type { TestProject } from 'vitest/node';
import { startClickHouse } from '../../src/testing/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `host:port` of the HTTP interface of the run's shared ClickHouse. */
    clickhouseHttp: string;
  }
}

/**
 * One ClickHouse for the whole `server-clickhouse` run: it takes ~3–5 s to
 * start here, so every file shares it and each test server gets a database
 * of its own. Fails (never skips) when ClickHouse is not installed: CI
 * installs it (.ci/run).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const clickhouse = await startClickHouse();
  project.provide('clickhouseHttp', `127.0.0.1:${clickhouse.httpPort}`);
  return () => clickhouse.dispose();
}
