/**
 * Shared by the fuzz-*.test.ts files: one way to send a raw request to the
 * server (in-process through `app.inject`, or over real HTTP), the "victim"
 * project seeded before a fuzz run and snapshotted through the read API, the
 * reply contract every case must meet, and the hostile values.
 */
import { request as httpRequest } from 'node:http';
import { digestBytes, digestValue, encodeMsgpack, routes, tableDigest } from '@weft/protocol';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { CONTENT_TYPE_PROTOBUF, decodeRpcStatus } from '../../src/index.js';
import { callIdOf, completeOf, endOf, startOf } from './calls.js';

export interface RawRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
  /** Path and query exactly as sent: no normalization, no re-encoding. */
  url: string;
  headers?: Record<string, string>;
  body?: Buffer | undefined;
}

export interface RawReply {
  status: number;
  contentType: string;
  text: string;
  /** The body as sent (protobuf answers of /v1/traces are not text). */
  bytes: Buffer;
}

export type Send = (request: RawRequest) => Promise<RawReply>;

/** Sends through `app.inject`: the whole stack but the socket. */
export function injectSender(app: FastifyInstance): Send {
  return async ({ method, url, headers = {}, body }) => {
    const reply = await app.inject({
      method,
      url,
      headers,
      ...(body === undefined ? {} : { payload: body }),
    });
    return {
      status: reply.statusCode,
      contentType: String(reply.headers['content-type'] ?? ''),
      text: reply.body,
      bytes: reply.rawPayload,
    };
  };
}

/**
 * Sends over a real socket with node:http, the path byte for byte as given.
 * A server may answer (413) and close before the whole body was written;
 * the answer counts, the client's write error after it does not.
 */
export function httpSender(baseUrl: string): Send {
  const { hostname, port } = new URL(baseUrl);
  return ({ method, url, headers = {}, body }) =>
    new Promise((resolve, reject) => {
      let answered = false;
      const req = httpRequest(
        {
          host: hostname,
          port,
          method,
          path: url,
          headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        },
        (res) => {
          answered = true;
          const chunks: Buffer[] = [];
          const done = () =>
            resolve({
              status: res.statusCode ?? 0,
              contentType: String(res.headers['content-type'] ?? ''),
              text: Buffer.concat(chunks).toString('utf8'),
              bytes: Buffer.concat(chunks),
            });
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', done);
          res.on('error', done);
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (!answered)
          reject(
            new Error(
              `${method} ${url.slice(0, 200)} (${body?.length ?? 0} bytes): ${error.code ?? error.message}`,
            ),
          );
      });
      req.end(body);
    });
}

export const VICTIM = 'victim';

/** Bodies as the SDK sends them. */
export const asJson = (value: unknown): Pick<RawRequest, 'headers' | 'body'> => ({
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify(value)),
});
export const asMsgpack = (value: unknown): Pick<RawRequest, 'headers' | 'body'> => ({
  headers: { 'content-type': 'application/msgpack' },
  body: Buffer.from(encodeMsgpack(value)),
});

async function ok(send: Send, request: RawRequest): Promise<unknown> {
  const reply = await send(request);
  if (reply.status !== 200) throw new Error(`seeding ${request.url} failed: ${reply.status} ${reply.text}`);
  return JSON.parse(reply.text);
}

/** The victim's seeded content names, for the snapshot. */
export interface VictimSeed {
  tableDigest: string;
  fileDigest: string;
}

/** Seeds project "victim" with calls, two object versions, a table and a file. */
export async function seedVictim(send: Send): Promise<VictimSeed> {
  const items = [
    completeOf(1, { opName: 'weft:///victim/op/answer:abc', inputs: { q: "it's 100% _private_" } }),
    startOf(2, { parentId: callIdOf(1), traceId: callIdOf(1), opName: 'child' }),
    endOf(2, { exception: { name: 'Error', message: 'boom' } }),
    startOf(3, { displayName: 'running one' }),
  ];
  await ok(send, { method: 'POST', url: routes.callBatch(), ...asMsgpack({ project: VICTIM, items }) });
  for (const value of [{ v: 1 }, { v: 2, nested: [1, 'two'] }]) {
    await ok(send, {
      method: 'POST',
      url: routes.objectCreate(),
      ...asJson({ project: VICTIM, name: 'prompt', value, digest: digestValue(value) }),
    });
  }
  const rows = [{ a: 1 }, { a: "'; DROP TABLE rows; --" }];
  const table = (await ok(send, {
    method: 'POST',
    url: routes.tableCreate(),
    ...asJson({ project: VICTIM, rows }),
  })) as { digest: string };
  expect(table.digest).toBe(tableDigest(rows.map((r) => digestValue(r))));
  const bytes = Buffer.from('victim file bytes');
  await ok(send, {
    method: 'POST',
    url: routes.fileCreate(VICTIM),
    headers: { 'content-type': 'application/octet-stream' },
    body: bytes,
  });
  return { tableDigest: table.digest, fileDigest: digestBytes(bytes) };
}

/** Everything the read API shows of the victim, as one comparable value. */
export async function snapshotVictim(send: Send, seed: VictimSeed): Promise<unknown> {
  const read = async (url: string) => {
    const reply = await send({ method: 'GET', url });
    return { status: reply.status, body: reply.text };
  };
  const query = await ok(send, {
    method: 'POST',
    url: routes.callQuery(),
    ...asJson({ project: VICTIM, limit: 1000 }),
  });
  const calls = [];
  for (const n of [1, 2, 3, 4]) calls.push(await read(routes.call(VICTIM, callIdOf(n))));
  return {
    query,
    calls,
    objects: await read(routes.objectList(VICTIM)),
    versions: await read(routes.objectVersions(VICTIM, 'prompt')),
    latest: await read(routes.objectRead(VICTIM, 'prompt', 'latest')),
    rows: await read(`${routes.tableRows(VICTIM, seed.tableDigest)}?offset=0&limit=100`),
    file: await read(routes.fileRead(VICTIM, seed.fileDigest)),
  };
}

/**
 * The contract for every hostile request: a correct 2xx, or a 4xx whose JSON
 * body names a Weft error code with a message; never a 5xx.
 */
export function expectHandled(reply: RawReply, label: string): void {
  expect(reply.status, `${label} → ${reply.status} ${reply.text.slice(0, 300)}`).toBeLessThan(500);
  if (reply.status >= 400 && reply.contentType.startsWith(CONTENT_TYPE_PROTOBUF)) {
    // OTLP/HTTP answers a protobuf request with a protobuf google.rpc.Status.
    const status = decodeRpcStatus(reply.bytes);
    expect(status.message, label).toMatch(/^WEFT_[A-Z_]+: ./);
    return;
  }
  if (reply.status >= 400 && reply.status !== 405) {
    expect(reply.contentType, label).toContain('application/json');
    const body = JSON.parse(reply.text) as { error?: { code?: unknown; message?: unknown } };
    expect(body.error?.code, label).toMatch(/^WEFT_[A-Z_]+$/);
    expect(typeof body.error?.message === 'string' && body.error.message.length > 0, label).toBe(true);
  }
}

/** The server still answers after a case. */
export async function expectAlive(send: Send): Promise<void> {
  const reply = await send({ method: 'GET', url: routes.health() });
  expect(reply.status).toBe(200);
}

// ── Hostile values ──────────────────────────────────────────────────────────

/** Strings aimed at names, ops, text filters and path parameters. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '../victim',
  '..%2fvictim',
  '%2e%2e%2fvictim',
  'victim/../x',
  '..\\victim',
  'victim\u0000',
  '\u0000',
  'victim%00',
  '%',
  '_',
  '%_%',
  "' OR 1=1 --",
  '"; DROP TABLE calls; --',
  "'; DELETE FROM objects WHERE project='victim'; --",
  'victim; --',
  '`',
  '\\',
  '\uD800',
  '\uDFFF',
  'a\uD83D',
  '\u202Evictim',
  '\u200Bvictim',
  '👩‍👩‍👧‍👦',
  'ﬁ',
  'İ',
  'VICTIM',
  'Victim',
  'x'.repeat(129),
  'x'.repeat(257),
  'x'.repeat(70_000),
  '\r\nX-Injected: 1',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '$(id)',
  'weft:///victim/object/prompt:latest',
  'weft:///../victim',
  '__proto__',
  'constructor',
  'toJSON',
] as const;

export const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 20 }) },
);

/** Numbers JSON and msgpack can carry, and some they cannot. */
export const hostileNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, -0, 0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
  fc.constantFrom(2 ** 53, 2 ** 53 + 2, -(2 ** 53), 2 ** 64, 5e-324, 0.1, -1, 1_000_001, 10_001),
  fc.constantFrom(2n ** 64n - 1n, -(2n ** 63n), 2n ** 63n, 1n),
  fc.double(),
  fc.integer(),
);

/**
 * A value nested `depth` levels (arrays or objects), built without recursion.
 * It prints as `nested(depth)`: fast-check's own printer recurses and would
 * overflow reporting a counterexample. (Symbol keys are invisible on the wire.)
 */
export function nested(depth: number, kind: 'array' | 'object' = 'array'): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return Object.assign(value as object, { [fc.toStringMethod]: () => `nested(${depth}, '${kind}')` });
}

const hostileLeaf: fc.Arbitrary<unknown> = fc.oneof(hostileString, hostileNumber);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  // Hostile leaves inside containers pass "is a record/array" checks and reach storage.
  { weight: 3, arbitrary: fc.dictionary(hostileString, hostileLeaf, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.array(hostileLeaf, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, true, false, [], {}, [null], { '': '' }) },
  { weight: 1, arbitrary: fc.constantFrom(new Date(0), new Uint8Array([1, 2, 3]), new Date(Number.NaN)) },
  // Just past the server's 1,008-level limit: deeper values overflow msgpackr's
  // recursive encoder in the test itself (fuzz-endpoints splices 10,000 levels by hand).
  { weight: 1, arbitrary: fc.constantFrom(1_000, 1_010, 1_050).map((d) => nested(d)) },
  { weight: 1, arbitrary: fc.constantFrom(999, 1_050).map((d) => nested(d, 'object')) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(JSON.parse('{"__proto__":{"polluted":1}}'), { constructor: { prototype: 1 } }),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 4 }) },
);

/** A project name to aim at: anything but the victim itself. */
export const hostileProject = fc
  .oneof(
    // Mostly valid, so the other fields get past the project check.
    { weight: 4, arbitrary: fc.constantFrom('fuzz', 'fuzz-2', 'Victim', 'victim.2', 'victim-') },
    { weight: 1, arbitrary: hostileString },
  )
  .filter((p) => p !== VICTIM);

/** An object or op name: mostly valid, sometimes hostile. */
export const fuzzName = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('prompt', 'a.b-c_d', 'x'.repeat(256)) },
  { weight: 1, arbitrary: hostileString },
);

/**
 * Encodes a body as the fuzz case says. JSON cannot carry bigint (or keep
 * NaN, -0, dates, bytes), so such values go as msgpack whatever was asked.
 */
export function encodeBody(value: unknown, format: 'json' | 'msgpack'): Pick<RawRequest, 'headers' | 'body'> {
  if (format === 'json') {
    try {
      return asJson(value);
    } catch {
      // A bigint somewhere: only msgpack can carry it.
    }
  }
  return asMsgpack(value);
}

// ── Structured bodies for every POST route ──────────────────────────────────

/** Sets each chosen field of `base` to the hostile value at the same index. */
function override(base: Record<string, unknown>, fields: readonly string[], values: readonly unknown[]) {
  const out = { ...base };
  fields.forEach((field, i) => {
    out[field] = values[i % Math.max(values.length, 1)];
  });
  return out;
}

/** A body arbitrary: the valid base, with a subset of `fields` overridden. */
function mutated(base: fc.Arbitrary<Record<string, unknown>>, fields: string[]) {
  // Mostly one field at a time, so the rest stays valid and the hostile value
  // reaches storage and the read API instead of stopping at validation.
  const chosen = fc.oneof(
    { weight: 3, arbitrary: fc.subarray(fields, { minLength: 1, maxLength: 1 }) },
    fc.subarray(fields, { maxLength: Math.min(3, fields.length) }),
  );
  return fc
    .tuple(base, chosen, fc.array(hostileValue, { minLength: 1, maxLength: 3 }))
    .map(([b, picked, values]) => override(b, picked, values));
}

const itemFields = [
  'type',
  'id',
  'traceId',
  'parentId',
  'opName',
  'displayName',
  'startedAt',
  'endedAt',
  'inputs',
  'output',
  'exception',
  'summary',
  'attributes',
  'extra',
];
const callItem = mutated(
  fc.tuple(fc.nat(1000), fc.constantFrom('start', 'end', 'complete')).map(([n, type]) => {
    const item = type === 'start' ? startOf(n + 100) : type === 'end' ? endOf(n + 100) : completeOf(n + 100);
    return item as unknown as Record<string, unknown>;
  }),
  itemFields,
);

export const bodies: Record<string, fc.Arbitrary<unknown>> = {
  [routes.callBatch()]: mutated(
    fc.record({ project: hostileProject, items: fc.array(callItem, { minLength: 1, maxLength: 3 }) }),
    ['project', 'items'],
  ),
  [routes.callQuery()]: mutated(fc.record({ project: hostileProject }), [
    'traceId',
    'parentId',
    'opName',
    'status',
    'startedAfter',
    'startedBefore',
    'text',
    'sort',
    'limit',
    'cursor',
    'project',
  ]).chain((query) =>
    // Text and op filters get SQL metacharacters and unicode far more often than other values.
    fc
      .record(
        { text: hostileString, opName: fc.oneof(hostileString, fc.array(hostileString, { maxLength: 3 })) },
        { requiredKeys: [] },
      )
      .map((filters) => ({ ...query, ...filters })),
  ),
  [routes.objectCreate()]: mutated(
    fc.tuple(hostileProject, fuzzName, fc.jsonValue({ maxDepth: 2 })).map(([project, name, value]) => ({
      project,
      name,
      kind: 'object',
      value,
      digest: digestValue(value),
    })),
    ['project', 'name', 'kind', 'value', 'digest'],
  ),
  [routes.tableCreate()]: mutated(
    fc.record({ project: hostileProject, rows: fc.array(hostileValue, { maxLength: 3 }) }),
    ['project', 'rows', 'digest'],
  ),
  [routes.tableAppend()]: mutated(
    fc.record({
      project: hostileProject,
      base: hostileString,
      rows: fc.array(hostileValue, { minLength: 1, maxLength: 3 }),
    }),
    ['project', 'base', 'rows', 'digest'],
  ),
  // Row-dedup routes (answer 404 where a build lacks them; still no 5xx).
  '/v1/tables/rows/known': mutated(
    fc.record({ project: hostileProject, digests: fc.array(hostileString, { maxLength: 3 }) }),
    ['project', 'digests'],
  ),
  '/v1/tables/rows': mutated(
    fc.record({
      project: hostileProject,
      rows: fc.array(fc.record({ digest: hostileString, value: hostileValue }), { maxLength: 3 }),
    }),
    ['project', 'rows'],
  ),
  '/v1/tables/by-digests': mutated(
    fc.record({
      project: hostileProject,
      rowDigests: fc.array(hostileString, { maxLength: 3 }),
      rows: fc.array(hostileValue, { maxLength: 2 }),
    }),
    ['project', 'rowDigests', 'rows', 'digest'],
  ),
};

export const postCase = fc.oneof(
  ...Object.entries(bodies).map(([url, body]) =>
    fc.record({
      url: fc.constant(url),
      body: fc.oneof({ weight: 5, arbitrary: body }, { weight: 1, arbitrary: hostileValue }),
      format: fc.constantFrom('json', 'msgpack') as fc.Arbitrary<'json' | 'msgpack'>,
    }),
  ),
);

// ── Raw bodies, paths and headers ───────────────────────────────────────────

const POST_URLS = Object.keys(bodies);

/** Content types a client might send, right and wrong. */
export const contentType = fc.constantFrom(
  'application/json',
  'application/msgpack',
  'application/x-msgpack',
  'application/json; charset=utf-16',
  'application/msgpack; charset=utf-8',
  'text/plain',
  'application/octet-stream',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/json, application/msgpack',
  'application/x-protobuf',
  'application/protobuf',
  '',
  '\u00ff',
);

/** Bytes that are not quite a body: random, truncated, bit-flipped, BOMs, bare literals. */
export const rawBytes = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc.string({ unit: 'binary', maxLength: 64 }).map((s) => new TextEncoder().encode(s)),
  fc
    .constantFrom(
      '',
      '{',
      '[',
      '{"project":',
      'null',
      '1e400',
      '-0',
      'NaN',
      '"\\ud800"',
      '\ufeff{}',
      '{"__proto__":{"a":1}}',
      '{"project":"fuzz","items":[{}]}',
    )
    .map((s) => new TextEncoder().encode(s)),
  // Valid envelopes cut short or with one byte flipped.
  fc.tuple(fc.constantFrom(...POST_URLS), fc.nat(), fc.nat(255)).map(([url, cut, flip]) => {
    const bytes = encodeMsgpack({ project: 'fuzz', items: [completeOf(1)], url, rows: [{ a: 1 }] });
    const copy = Uint8Array.from(bytes.subarray(0, 1 + (cut % bytes.length)));
    const at = cut % copy.length;
    copy[at] = (copy[at] ?? 0) ^ flip;
    return copy;
  }),
  // msgpack types JSON has no word for: ext types, timestamps, uint64, bin, str8 with invalid UTF-8.
  fc
    .constantFrom(
      [0xd4, 0x05, 0x00],
      [0xd6, 0xff, 0, 0, 0, 1],
      [0xc7, 0x00, 0x72],
      [0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
      [0xc4, 0x03, 1, 2, 3],
      [0x81, 0xa7, 0x70, 0x72, 0x6f, 0x6a, 0x65, 0x63, 0x74, 0xa2, 0xff, 0xfe],
      [0xdf, 0xff, 0xff, 0xff, 0xff],
      [0xdd, 0xff, 0xff, 0xff, 0xff],
      [0xdb, 0xff, 0xff, 0xff, 0xff, 0x61],
      [0xc1],
    )
    .map((b) => Uint8Array.from(b)),
);

export const rawBodyCase = fc.record({
  url: fc.constantFrom(...POST_URLS, routes.fileCreate('fuzz'), routes.otlpTraces()),
  contentType,
  body: rawBytes,
});

/**
 * Percent-encodes the UTF-8 bytes of `text` except `keep`; unlike
 * encodeURIComponent it does not throw on lone surrogates (they go as U+FFFD).
 */
function percentEncode(text: string, keep: RegExp): string {
  let out = '';
  for (const c of text) {
    if (keep.test(c)) out += c;
    else
      for (const byte of Buffer.from(c, 'utf8'))
        out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** How a hostile path parameter is spelled into the URL. */
function spell(value: string, how: 'encoded' | 'raw' | 'double'): string {
  const encoded = percentEncode(value, /^[A-Za-z0-9_.!~*'()-]$/);
  if (how === 'encoded') return encoded;
  if (how === 'double') return encoded.replace(/%/g, '%25');
  // Raw: as typed ('../', '%2e%2e%2f' stay), encoding only what cannot travel in a request line.
  return percentEncode(value, /^[\x21-\x7e]$/).replace(/[#?]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
}

const pathParam = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'latest',
      'v1',
      'v0',
      'v99999999999',
      'A'.repeat(43),
      'a'.repeat(42),
      '%2F',
      '%2e%2e',
      '..',
      '.',
      '%00',
      '%ff',
      '%',
      '%zz',
    ),
  },
);

/** GET routes (and file upload) with hostile path parameters and query strings. */
export const pathCase = fc
  .record({
    template: fc.constantFrom(
      { method: 'GET', pattern: '/v1/calls/{p}/{a}' },
      { method: 'GET', pattern: '/v1/objects/{p}' },
      { method: 'GET', pattern: '/v1/objects/{p}/{a}/versions' },
      { method: 'GET', pattern: '/v1/objects/{p}/{a}/versions/{b}' },
      { method: 'GET', pattern: '/v1/tables/{p}/{a}/rows' },
      { method: 'GET', pattern: '/v1/files/{p}/{a}' },
      { method: 'POST', pattern: '/v1/files/{p}' },
      { method: 'GET', pattern: '/v1/{a}' },
      { method: 'GET', pattern: '/{a}/{b}' },
    ),
    p: fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom('fuzz', 'Victim') },
      { weight: 3, arbitrary: pathParam },
    ),
    a: pathParam,
    b: pathParam,
    how: fc.constantFrom('encoded', 'raw', 'double') as fc.Arbitrary<'encoded' | 'raw' | 'double'>,
    query: fc.oneof(
      fc.constant(''),
      fc
        .tuple(
          fc.constantFrom('offset', 'limit', 'offset[]', 'limit[x]', '__proto__', 'constructor'),
          fc.oneof(hostileString, hostileNumber.map(String)),
        )
        .map(([k, v]) => `?${k}=${spell(v, 'encoded')}`),
      fc.constantFrom(
        '?offset=1&offset=2',
        '?limit=1e308',
        '?limit=-0',
        '?offset=-1',
        '?limit=NaN',
        '?limit=0x10',
        '?limit=10001',
        '?offset=99999999999999999999',
        '?%=%',
        '?limit',
      ),
    ),
  })
  .filter(({ p }) => p !== VICTIM)
  .map(
    ({ template: { method, pattern }, p, a, b, how, query }): RawRequest => ({
      method: method as RawRequest['method'],
      url:
        pattern.replace('{p}', spell(p, how)).replace('{a}', spell(a, how)).replace('{b}', spell(b, how)) +
        query,
      ...(method === 'POST'
        ? { headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from('fuzz bytes') }
        : {}),
    }),
  );
