import { InvalidOptionsError } from '../errors/index.js';
import type { StorageTarget } from '../storage/index.js';

export type { StorageTarget };

/** Credentials from outside the URL (the CLI reads `WEFT_CLICKHOUSE_USER` / `WEFT_CLICKHOUSE_PASSWORD`). */
export interface StorageCredentials {
  username?: string | undefined;
  password?: string | undefined;
}

const fail = (reason: string): never => {
  throw new InvalidOptionsError('storage', reason);
};

/**
 * Parses a storage URL:
 *
 * - `sqlite:PATH` (or `sqlite://PATH`): the embedded SQLite file, as `--db PATH`;
 * - `chdb:PATH[?database=NAME&settleMs=N]`: ClickHouse inside this process (npm
 *   `chdb`, installed apart), its data in the folder PATH, database `weft`
 *   unless named;
 * - `clickhouse://[USER[:PASSWORD]@]HOST:PORT[,HOST:PORT…]/DATABASE[?cluster=NAME&timeoutMs=N&settleMs=N]`:
 *   ClickHouse's HTTP interface (`clickhouses://` for HTTPS). Several hosts
 *   are for a cluster: the schema is created on each, queries go to the first.
 *
 * User and password in the URL win over `credentials`. The message of a bad
 * URL never repeats the URL (it may hold a password).
 */
export function parseStorageUrl(text: string, credentials: StorageCredentials = {}): StorageTarget {
  if (text.startsWith('sqlite:')) {
    const path = text.slice('sqlite:'.length).replace(/^\/\//, '');
    return path === ''
      ? fail('sqlite: needs a file path, e.g. sqlite:./.weft/weft.db')
      : { kind: 'sqlite', path };
  }
  if (text.startsWith('chdb:')) return chdbTarget(text.slice('chdb:'.length).replace(/^\/\//, ''));
  const scheme = /^(clickhouses?):\/\//.exec(text)?.[1];
  if (scheme === undefined) {
    return fail('must start with sqlite:, chdb: or clickhouse:// (e.g. clickhouse://127.0.0.1:8123/weft)');
  }
  const rest = text.slice(scheme.length + 3);
  const at = rest.lastIndexOf('@', rest.indexOf('/') === -1 ? undefined : rest.indexOf('/'));
  const userInfo = at === -1 ? '' : rest.slice(0, at);
  const afterUser = at === -1 ? rest : rest.slice(at + 1);
  const slash = afterUser.indexOf('/');
  if (slash === -1) fail('clickhouse:// URL needs a database: clickhouse://HOST:PORT/DATABASE');
  const hostList = afterUser.slice(0, slash);
  const [pathPart = '', queryPart = ''] = afterUser.slice(slash + 1).split('?', 2);
  const database = decodeURIComponent(pathPart);
  if (hostList === '') fail('clickhouse:// URL needs a host, e.g. clickhouse://127.0.0.1:8123/weft');
  const protocol = scheme === 'clickhouses' ? 'https' : 'http';
  const hosts = hostList.split(',').map((host) => {
    const withPort =
      /:\d+$/.test(host) || /^\[.*\]:\d+$/.test(host)
        ? host
        : `${host}:${scheme === 'clickhouses' ? 8443 : 8123}`;
    return `${protocol}://${withPort}`;
  });
  const params = new URLSearchParams(queryPart);
  const colon = userInfo.indexOf(':');
  const urlUser =
    userInfo === '' ? undefined : decodeURIComponent(colon === -1 ? userInfo : userInfo.slice(0, colon));
  const urlPassword = colon === -1 ? undefined : decodeURIComponent(userInfo.slice(colon + 1));
  const username = urlUser ?? credentials.username;
  const password = urlPassword ?? credentials.password;
  const timeout = params.get('timeoutMs');
  const cluster = params.get('cluster');
  const settle = params.get('settleMs');
  for (const key of params.keys()) {
    if (key !== 'cluster' && key !== 'timeoutMs' && key !== 'settleMs')
      fail(`unknown clickhouse:// URL parameter ${key}; known: cluster, timeoutMs, settleMs`);
  }
  return {
    kind: 'clickhouse',
    options: {
      hosts,
      database,
      ...(username === undefined ? {} : { username }),
      ...(password === undefined ? {} : { password }),
      ...(cluster === null ? {} : { cluster }),
      ...(timeout === null ? {} : { requestTimeoutMs: Number(timeout) }),
      ...(settle === null ? {} : { completionSettleMs: Number(settle) }),
    },
  };
}

/** `chdb:PATH[?database=NAME&settleMs=N]` after the scheme. */
function chdbTarget(rest: string): StorageTarget {
  const question = rest.indexOf('?');
  const path = question === -1 ? rest : rest.slice(0, question);
  if (path === '') fail('chdb: needs a folder for its data, e.g. chdb:./.weft/chdb');
  const params = new URLSearchParams(question === -1 ? '' : rest.slice(question + 1));
  for (const key of params.keys()) {
    if (key !== 'database' && key !== 'settleMs')
      fail(`unknown chdb: URL parameter ${key}; known: database, settleMs`);
  }
  const settle = params.get('settleMs');
  return {
    kind: 'clickhouse',
    options: {
      chdbPath: path,
      database: params.get('database') ?? 'weft',
      ...(settle === null ? {} : { completionSettleMs: Number(settle) }),
    },
  };
}

/** A storage URL fit for a banner or a log line: the password replaced by `***`. */
export function redactStorageUrl(text: string): string {
  return text.replace(/^(clickhouses?:\/\/[^:/@]*:)[^@/]*@/, '$1***@');
}
