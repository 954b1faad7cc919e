// Where a bench's server stores: `--storage sqlite` (default: a SQLite file in
// a temp folder), `--storage clickhouse` (a throwaway ClickHouse server this
// bench starts on free ports, via @weft/server/testing), `--storage chdb`
// (ClickHouse 26 in this process, npm chdb: `npm run chdb:install`), or an
// existing `clickhouse://HOST:PORT/DATABASE` URL. Each run gets a fresh database.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const testing = new URL('../../packages/server/dist/testing/index.js', import.meta.url);

/**
 * @param {string} spec `sqlite`, `clickhouse`, `chdb` or a clickhouse:// URL
 * @param {{ keep?: string }} [options] chDB: a folder kept after the run (and reused by the next), with one
 *   database per `keep.database` name, instead of a temporary folder
 * @returns {Promise<{ kind: 'sqlite' | 'clickhouse' | 'chdb', label: string, chdbPath?: string, fresh(dir: string): { storage?: string, dbPath?: string, database?: string }, httpUrl?: string, dispose(): Promise<void> }>}
 */
export async function storageTarget(spec = 'sqlite', options = {}) {
  if (spec === 'sqlite') {
    return {
      kind: 'sqlite',
      label: 'SQLite',
      fresh: (dir) => ({ dbPath: join(dir, 'weft.db') }),
      dispose: async () => {},
    };
  }
  if (spec === 'chdb') {
    const root = options.keep ?? (await mkdtemp(join(tmpdir(), 'weft-bench-chdb-')));
    const require = createRequire(new URL('../../packages/server/package.json', import.meta.url));
    const version = require('chdb/package.json').version;
    return {
      kind: 'chdb',
      label: `chDB ${version}`,
      chdbPath: root,
      fresh: (_dir, name) => {
        const database = name ?? `bench_${randomUUID().replaceAll('-', '')}`;
        return { storage: `chdb:${root}?database=${database}`, database };
      },
      dispose: () =>
        options.keep === undefined ? rm(root, { recursive: true, force: true }) : Promise.resolve(),
    };
  }
  let base;
  let dispose = async () => {};
  let version = '';
  if (spec === 'clickhouse') {
    const { startClickHouse } = await import(testing.href);
    const server = await startClickHouse();
    base = `127.0.0.1:${server.httpPort}`;
    dispose = () => server.dispose();
  } else if (spec.startsWith('clickhouse://')) {
    base = spec.slice('clickhouse://'.length).split('/')[0];
  } else {
    throw new Error(`--storage must be sqlite, clickhouse, chdb or a clickhouse:// URL, got ${spec}`);
  }
  const httpUrl = `http://${base.split(',')[0].replace(/^.*@/, '')}`;
  try {
    version = (await (await fetch(httpUrl, { method: 'POST', body: 'SELECT version()' })).text()).trim();
  } catch {}
  return {
    kind: 'clickhouse',
    label: `ClickHouse ${version}`.trim(),
    httpUrl,
    fresh: () => {
      const database = `bench_${randomUUID().replaceAll('-', '')}`;
      return { storage: `clickhouse://${base}/${database}`, database };
    },
    dispose,
  };
}

/** Runs one SELECT on ClickHouse's HTTP interface and returns the first row (JSONEachRow). */
export async function clickHouseRow(httpUrl, sql) {
  const res = await fetch(httpUrl, { method: 'POST', body: `${sql} FORMAT JSONEachRow` });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`ClickHouse: ${text}`);
  return JSON.parse(text.split('\n')[0]);
}

/**
 * SQL on a bench's engine, apart from the servers' connections: chDB in this
 * process (the same folder), or ClickHouse over HTTP. `command` runs a
 * statement (no wait limit: the generated load's INSERTs take minutes).
 */
export async function engineClient(target) {
  if (target.kind === 'chdb') {
    const require = createRequire(new URL('../../packages/server/package.json', import.meta.url));
    const { createClient } = require('@clickhouse/client');
    const { createChdbConnection } = require('chdb/connection');
    const client = createClient({
      connection: createChdbConnection({ path: target.chdbPath }),
      request_timeout: 3_600_000,
    });
    return {
      rows: async (sql) => (await client.query({ query: sql, format: 'JSONEachRow' })).json(),
      command: async (sql) => {
        await client.command({ query: sql });
      },
      close: () => client.close(),
    };
  }
  const post = async (sql) => {
    const res = await fetch(target.httpUrl, { method: 'POST', body: sql });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`ClickHouse: ${text}`);
    return text;
  };
  return {
    rows: async (sql) =>
      (await post(`${sql} FORMAT JSONEachRow`))
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    command: async (sql) => {
      await post(sql);
    },
    close: async () => {},
  };
}
