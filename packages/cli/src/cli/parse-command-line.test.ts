import { DEFAULT_PORT, DEFAULT_URL } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { captureIo } from '../../test/support/capture-io.js';
import { ExitCode } from '../exit/exit-code.js';
import { parseCommandLine } from './parse-command-line.js';

const TRACE = '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

const serveDefaults = {
  host: '127.0.0.1',
  port: DEFAULT_PORT,
  dbPath: './.weft/weft.db',
  token: undefined,
  storage: undefined,
  tokensFile: undefined,
  tokenOnCommandLine: false,
  workers: 1,
};
const callsDefaults = {
  url: DEFAULT_URL,
  token: undefined,
  project: 'demo',
  traceId: undefined,
  filters: {},
  sort: undefined,
  limit: 50,
  format: 'table',
};

type Env = Record<string, string>;

const commandCases: { name: string; argv: string[]; env?: Env; path: string[]; options: unknown }[] = [
  { name: 'serve with every default', argv: ['serve'], path: ['serve'], options: serveDefaults },
  {
    name: 'serve with every flag',
    argv: ['serve', '--host', '0.0.0.0', '--port', '0', '--db', '/tmp/x.db', '--token', 's3cret'],
    path: ['serve'],
    options: {
      ...serveDefaults,
      host: '0.0.0.0',
      port: 0,
      dbPath: '/tmp/x.db',
      token: 's3cret',
      tokenOnCommandLine: true,
    },
  },
  {
    name: 'serve with a storage URL',
    argv: ['serve', '--storage', 'clickhouse://127.0.0.1:8123/weft'],
    path: ['serve'],
    options: { ...serveDefaults, storage: 'clickhouse://127.0.0.1:8123/weft' },
  },
  {
    name: 'serve takes the storage URL and ClickHouse credentials from the environment',
    argv: ['serve'],
    env: { WEFT_STORAGE: 'clickhouse://h:1/db', WEFT_CLICKHOUSE_USER: 'u', WEFT_CLICKHOUSE_PASSWORD: 'p' },
    path: ['serve'],
    options: {
      ...serveDefaults,
      storage: 'clickhouse://h:1/db',
      storageCredentials: { username: 'u', password: 'p' },
    },
  },
  {
    name: 'serve prefers --storage over WEFT_STORAGE',
    argv: ['serve', '--storage', 'sqlite:/tmp/a.db'],
    env: { WEFT_STORAGE: 'clickhouse://h:1/db' },
    path: ['serve'],
    options: { ...serveDefaults, storage: 'sqlite:/tmp/a.db' },
  },
  {
    name: 'serve takes the token from WEFT_TOKEN',
    argv: ['serve'],
    env: { WEFT_TOKEN: 'from-env' },
    path: ['serve'],
    options: { ...serveDefaults, token: 'from-env' },
  },
  {
    name: 'serve prefers --token over WEFT_TOKEN',
    argv: ['serve', '--token=flag'],
    env: { WEFT_TOKEN: 'from-env' },
    path: ['serve'],
    options: { ...serveDefaults, token: 'flag', tokenOnCommandLine: true },
  },
  {
    name: 'serve treats an empty WEFT_TOKEN as unset',
    argv: ['serve'],
    env: { WEFT_TOKEN: '' },
    path: ['serve'],
    options: serveDefaults,
  },
  {
    name: 'calls with a project flag and every default',
    argv: ['calls', '--project', 'demo'],
    path: ['calls'],
    options: callsDefaults,
  },
  {
    name: 'calls with every flag',
    argv: [
      'calls',
      '--url',
      'http://localhost:9000/',
      '--project',
      'demo',
      '--trace',
      TRACE.toUpperCase(),
      '--op',
      'answer',
      '--status',
      'error',
      '--limit',
      '5000',
      '--json',
      '--token',
      'k',
    ],
    path: ['calls'],
    options: {
      url: 'http://localhost:9000',
      token: 'k',
      project: 'demo',
      traceId: TRACE,
      filters: { opName: 'answer', status: 'error' },
      sort: undefined,
      limit: 5000,
      format: 'json',
    },
  },
  {
    name: 'calls with every filter, typed as the call query types them',
    argv: [
      'calls',
      '--text',
      'refund failed',
      '--attr',
      'env=prod',
      '--attr',
      'tier=2',
      '--attr',
      'beta=true',
      '--attr',
      'zip="02139"',
      '--session',
      'thread-1',
      '--user',
      'u-42',
      '--tag',
      'vip',
      '--tag',
      'eu',
      '--feedback',
      'thumbs=false',
      '--since',
      '2026-11-01',
      '--until',
      '1764547200000',
      '--roots',
      '--sort',
      'latency',
      '--op',
      'a',
      '--op',
      'b',
      '--status',
      'error',
      '--status',
      'running',
      '--format',
      'csv',
    ],
    path: ['calls'],
    options: {
      ...callsDefaults,
      project: undefined,
      filters: {
        text: 'refund failed',
        attributes: { env: 'prod', tier: 2, beta: true, zip: '02139' },
        sessionId: 'thread-1',
        userId: 'u-42',
        tag: ['vip', 'eu'],
        feedback: { name: 'thumbs', value: false },
        startedAfter: Date.UTC(2026, 10, 1),
        startedBefore: 1764547200000,
        parentId: null,
        opName: ['a', 'b'],
        status: ['error', 'running'],
      },
      sort: { field: 'latencyMs', direction: 'desc' },
      format: 'csv',
    },
  },
  {
    name: 'calls with a feedback name alone, a sort direction and one tag',
    argv: [
      'calls',
      '--project',
      'demo',
      '--feedback',
      'correctness',
      '--sort',
      'started:asc',
      '--tag',
      'vip',
    ],
    path: ['calls'],
    options: {
      ...callsDefaults,
      filters: { feedback: { name: 'correctness' }, tag: 'vip' },
      sort: { field: 'startedAt', direction: 'asc' },
    },
  },
  {
    name: 'calls without a project leaves it to the server (its only project, or a list)',
    argv: ['calls'],
    path: ['calls'],
    options: { ...callsDefaults, project: undefined },
  },
  {
    name: 'projects, sessions, call, datasets, evals and mcp with their defaults',
    argv: ['projects', '--json'],
    path: ['projects'],
    options: { url: DEFAULT_URL, token: undefined, format: 'json' },
  },
  {
    name: 'sessions with a time and a limit',
    argv: [
      'sessions',
      '--project',
      'demo',
      '--since',
      '2026-11-01T00:00Z',
      '--limit',
      '5',
      '--format',
      'csv',
    ],
    path: ['sessions'],
    options: {
      url: DEFAULT_URL,
      token: undefined,
      project: 'demo',
      since: Date.UTC(2026, 10, 1),
      limit: 5,
      format: 'csv',
    },
  },
  {
    name: 'call with an id',
    argv: ['call', TRACE.toUpperCase(), '--json'],
    path: ['call'],
    options: { url: DEFAULT_URL, token: undefined, project: undefined, id: TRACE, json: true },
  },
  {
    name: 'datasets',
    argv: ['datasets', '--project', 'demo'],
    path: ['datasets'],
    options: { url: DEFAULT_URL, token: undefined, project: 'demo', format: 'table' },
  },
  {
    name: 'evals with a limit',
    argv: ['evals', '--limit', '3', '--json'],
    path: ['evals'],
    options: { url: DEFAULT_URL, token: undefined, project: undefined, limit: 3, format: 'json' },
  },
  {
    name: 'mcp with writes allowed',
    argv: ['mcp', '--project', 'demo', '--allow-writes'],
    env: { WEFT_API_KEY: 'k' },
    path: ['mcp'],
    options: { url: DEFAULT_URL, token: 'k', project: 'demo', allowWrites: true },
  },
  {
    name: 'calls takes url, project and token from the environment',
    argv: ['calls'],
    env: { WEFT_URL: 'http://127.0.0.1:1234', WEFT_PROJECT: 'demo', WEFT_API_KEY: 'key' },
    path: ['calls'],
    options: { ...callsDefaults, url: 'http://127.0.0.1:1234', token: 'key' },
  },
  {
    name: 'calls prefers flags over the environment',
    argv: ['calls', '--project', 'demo', '--url', 'http://a:1', '--token', 'flag'],
    env: { WEFT_URL: 'http://b:2', WEFT_PROJECT: 'other', WEFT_API_KEY: 'env' },
    path: ['calls'],
    options: { ...callsDefaults, url: 'http://a:1', token: 'flag' },
  },
  {
    name: 'eval compare with two run ids',
    argv: ['eval', 'compare', TRACE, TRACE.replace('0193', '0194'), '--project', 'demo'],
    path: ['eval', 'compare'],
    options: {
      url: DEFAULT_URL,
      token: undefined,
      project: 'demo',
      runA: TRACE,
      runB: TRACE.replace('0193', '0194'),
      lowerIsBetter: [],
      json: false,
    },
  },
  {
    name: 'eval compare with every flag and environment fallbacks',
    argv: ['eval', 'compare', TRACE, TRACE, '--lower-is-better', 'cost, latency,', '--json'],
    env: { WEFT_URL: 'http://h:1', WEFT_PROJECT: 'demo', WEFT_API_KEY: 'k' },
    path: ['eval', 'compare'],
    options: {
      url: 'http://h:1',
      token: 'k',
      project: 'demo',
      runA: TRACE,
      runB: TRACE,
      lowerIsBetter: ['cost', 'latency'],
      json: true,
    },
  },
  {
    name: 'outbox status with every default',
    argv: ['outbox', 'status'],
    path: ['outbox', 'status'],
    options: { dir: './.weft/outbox', project: undefined, json: false },
  },
  {
    name: 'outbox status with every flag',
    argv: ['outbox', 'status', '--dir', '/tmp/ob', '--project', 'demo', '--json'],
    path: ['outbox', 'status'],
    options: { dir: '/tmp/ob', project: 'demo', json: true },
  },
  {
    name: 'outbox status shows every project even when WEFT_PROJECT is set',
    argv: ['outbox', 'status'],
    env: { WEFT_PROJECT: 'demo' },
    path: ['outbox', 'status'],
    options: { dir: './.weft/outbox', project: undefined, json: false },
  },
  {
    name: 'outbox replay with every default',
    argv: ['outbox', 'replay'],
    path: ['outbox', 'replay'],
    options: { dir: './.weft/outbox', project: undefined, url: DEFAULT_URL, token: undefined, json: false },
  },
  {
    name: 'outbox replay with every flag',
    argv: ['outbox', 'replay', '--dir=/tmp/ob', '--project', 'demo', '--url', 'http://h:9/', '--token', 't'],
    path: ['outbox', 'replay'],
    options: { dir: '/tmp/ob', project: 'demo', url: 'http://h:9', token: 't', json: false },
  },
  {
    name: 'outbox replay takes url and token from the environment',
    argv: ['outbox', 'replay'],
    env: { WEFT_URL: 'http://127.0.0.1:1234', WEFT_API_KEY: 'key', WEFT_TOKEN: 'server-side' },
    path: ['outbox', 'replay'],
    options: {
      dir: './.weft/outbox',
      project: undefined,
      url: 'http://127.0.0.1:1234',
      token: 'key',
      json: false,
    },
  },
  {
    name: 'outbox replay prefers flags over the environment',
    argv: ['outbox', 'replay', '--url', 'http://a:1', '--token', 'flag'],
    env: { WEFT_URL: 'http://b:2', WEFT_API_KEY: 'env' },
    path: ['outbox', 'replay'],
    options: { dir: './.weft/outbox', project: undefined, url: 'http://a:1', token: 'flag', json: false },
  },
  {
    name: 'calls does not read the server-side WEFT_TOKEN',
    argv: ['calls', '--project', 'demo'],
    env: { WEFT_TOKEN: 'server-side' },
    path: ['calls'],
    options: callsDefaults,
  },
];

describe('parseCommandLine: command lines that resolve to a command', () => {
  it.each(commandCases)('$name', ({ argv, env, path, options }) => {
    const io = captureIo(env);
    const outcome = parseCommandLine(argv, io);
    expect(io.err()).toBe('');
    expect(outcome.kind).toBe('command');
    if (outcome.kind !== 'command') return;
    expect(outcome.command.path).toEqual(path);
    expect(outcome.command.options).toEqual(options);
  });
});

const usageCases: { name: string; argv: string[]; env?: Env; stderr: RegExp }[] = [
  { name: 'no command at all', argv: [], stderr: /Usage: weft/ },
  { name: 'an unknown command', argv: ['frobnicate'], stderr: /unknown command 'frobnicate'/ },
  { name: 'an unknown flag', argv: ['serve', '--bogus'], stderr: /unknown option '--bogus'/ },
  { name: 'an extra argument', argv: ['serve', 'now'], stderr: /too many arguments/ },
  {
    name: 'a port that is not a number',
    argv: ['serve', '--port', 'http'],
    stderr: /--port <port>.*'http'.*0 to 65535/,
  },
  { name: 'a port out of range', argv: ['serve', '--port', '65536'], stderr: /--port <port>.*'65536'/ },
  { name: 'a negative port', argv: ['serve', '--port', '-1'], stderr: /--port/ },
  { name: 'a flag without its value', argv: ['serve', '--db'], stderr: /'--db <path>' argument missing/ },
  { name: 'an empty token', argv: ['serve', '--token', ''], stderr: /--token <token>.*non-empty/ },
  {
    name: 'an attribute filter without =',
    argv: ['calls', '--attr', 'env'],
    stderr: /--attr <key=value>.*key=value/,
  },
  { name: 'a time that is not one', argv: ['calls', '--since', 'yesterday'], stderr: /--since <time>.*ISO/ },
  {
    name: 'a sort that does not exist',
    argv: ['calls', '--sort', 'cost'],
    stderr: /--sort <field\[:dir\]>.*latency/,
  },
  {
    name: 'an output format that does not exist',
    argv: ['calls', '--format', 'xml'],
    stderr: /'xml' is invalid/,
  },
  {
    name: '--json with another format',
    argv: ['calls', '--json', '--format', 'csv'],
    stderr: /--json and --format csv/,
  },
  { name: 'call without an id', argv: ['call'], stderr: /missing required argument 'id'/ },
  { name: 'call with an id that is not one', argv: ['call', 'abc'], stderr: /UUID/ },
  {
    name: 'projects does not take --project',
    argv: ['projects', '--project', 'x'],
    stderr: /unknown option '--project'/,
  },
  { name: 'a malformed project name', argv: ['calls', '--project', '-x'], stderr: /--project <name>/ },
  {
    name: 'a malformed WEFT_PROJECT',
    argv: ['calls'],
    env: { WEFT_PROJECT: 'has space' },
    stderr: /WEFT_PROJECT="has space" is invalid/,
  },
  {
    name: 'a status that does not exist',
    argv: ['calls', '--project', 'p', '--status', 'ok'],
    stderr: /'ok' is invalid.*success/,
  },
  {
    name: 'a zero limit',
    argv: ['calls', '--project', 'p', '--limit', '0'],
    stderr: /--limit <n>.*at least 1/,
  },
  { name: 'a fractional limit', argv: ['calls', '--project', 'p', '--limit', '2.5'], stderr: /--limit <n>/ },
  {
    name: 'a trace id that is not a UUID',
    argv: ['calls', '--project', 'p', '--trace', 'abc'],
    stderr: /--trace <id>.*UUID/,
  },
  {
    name: 'a URL with another scheme',
    argv: ['calls', '--project', 'p', '--url', 'ftp://x'],
    stderr: /--url <url>.*ftp:/,
  },
  {
    name: 'a URL that does not parse',
    argv: ['calls', '--project', 'p', '--url', 'localhost'],
    stderr: /--url <url>/,
  },
  { name: 'eval without a subcommand', argv: ['eval'], stderr: /Usage: weft eval/ },
  {
    name: 'eval compare with one run',
    argv: ['eval', 'compare', TRACE, '--project', 'p'],
    stderr: /missing required argument 'runB'/,
  },
  {
    name: 'eval compare with a run that is not an id',
    argv: ['eval', 'compare', TRACE, 'latest', '--project', 'p'],
    stderr: /'latest'.*UUID/,
  },
  { name: 'outbox without a subcommand', argv: ['outbox'], stderr: /Usage: weft outbox/ },
  { name: 'an unknown outbox subcommand', argv: ['outbox', 'flush'], stderr: /unknown command 'flush'/ },
  {
    name: 'outbox status with an empty dir',
    argv: ['outbox', 'status', '--dir', ''],
    stderr: /--dir <path>.*non-empty/,
  },
  {
    name: 'outbox status with a malformed project',
    argv: ['outbox', 'status', '--project', '../etc'],
    stderr: /--project <name>/,
  },
  {
    name: 'outbox status does not take --url',
    argv: ['outbox', 'status', '--url', 'http://a:1'],
    stderr: /unknown option '--url'/,
  },
  {
    name: 'outbox replay with a URL that does not parse',
    argv: ['outbox', 'replay', '--url', 'localhost:7420'],
    stderr: /--url <url>/,
  },
  {
    name: 'outbox replay with a malformed WEFT_URL',
    argv: ['outbox', 'replay'],
    env: { WEFT_URL: 'ftp://x' },
    stderr: /WEFT_URL="ftp:\/\/x" is invalid/,
  },
  {
    name: 'a malformed WEFT_URL',
    argv: ['calls', '--project', 'p'],
    env: { WEFT_URL: 'localhost:7420' },
    stderr: /WEFT_URL="localhost:7420" is invalid/,
  },
];

describe('parseCommandLine: usage errors exit 2 with the reason on stderr', () => {
  it.each(usageCases)('$name', ({ argv, env, stderr }) => {
    const io = captureIo(env);
    const outcome = parseCommandLine(argv, io);
    expect(outcome).toMatchObject({ kind: 'exit', exitCode: ExitCode.usage });
    expect(io.err()).toMatch(stderr);
    expect(io.out()).toBe('');
  });
});

describe('parseCommandLine: help and version exit 0 on stdout', () => {
  it.each([
    { argv: ['--help'], stdout: /Commands:[\s\S]*serve[\s\S]*calls[\s\S]*Exit codes:/ },
    { argv: ['-h'], stdout: /Usage: weft/ },
    { argv: ['serve', '--help'], stdout: /Usage: weft serve[\s\S]*--port <port>[\s\S]*7420/ },
    {
      argv: ['calls', '--help'],
      stdout: /Usage: weft calls[\s\S]*WEFT_URL[\s\S]*WEFT_PROJECT[\s\S]*WEFT_API_KEY/,
    },
    { argv: ['outbox', '--help'], stdout: /Usage: weft outbox[\s\S]*status[\s\S]*replay/ },
    {
      argv: ['outbox', 'replay', '--help'],
      stdout: /Usage: weft outbox replay[\s\S]*--dir <path>[\s\S]*WEFT_URL[\s\S]*WEFT_API_KEY/,
    },
    { argv: ['--version'], stdout: /^\d+\.\d+\.\d+\n$/ },
  ])('weft $argv', ({ argv, stdout }) => {
    const io = captureIo();
    const outcome = parseCommandLine(argv, io);
    expect(outcome).toMatchObject({ kind: 'exit', exitCode: ExitCode.ok });
    expect(io.out()).toMatch(stdout);
    expect(io.err()).toBe('');
  });
});
