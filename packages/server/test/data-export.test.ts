import { type Call, type CallQuery, routes } from '@weft/protocol';
import { startTestServer, type TestServer } from '@weft/test-server';
import { tableFromIPC } from 'apache-arrow';
import { readParquet } from 'parquet-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARQUET_CALL_COLUMNS } from '../src/lifecycle/index.js';
import { post } from './support/http.js';
import { COMMON_WORD, storeScenario } from './support/lifecycle-scenario.js';
import { freshTestStorageUrl, testStorageKind } from './support/test-storage.js';

/*
 * Export (issue 28): any calls query as JSON Lines or Parquet, streamed,
 * with values resolved or as digests. The Parquet file is read back with a
 * second, independent implementation (parquet-wasm: Rust's arrow-rs, via
 * Apache Arrow's JS reader) and must equal what the read API answers.
 */
const admin = 'admin-token-0123456789';
const scoped = 'project-token-0123456789';
let server: TestServer;
const START = Date.UTC(2026, 5, 1);
const project = 'exported';

beforeAll(async () => {
  server = await startTestServer({
    storage: freshTestStorageUrl(),
    token: admin,
    projectTokens: { [scoped]: [project] },
    register: false,
  });
  // 700 traces, 1,399 calls (1 to 3 a trace): several export pages.
  await storeScenario(server.url, project, { count: 700, start: START, token: admin });
}, 120_000);
afterAll(() => server.close());

/** Every call a query answers through the read API, page by page. */
async function answered(query: Omit<CallQuery, 'project'>): Promise<Call[]> {
  const calls: Call[] = [];
  let cursor: string | undefined;
  do {
    const reply = await post(
      server.url,
      routes.callQuery(),
      { ...query, project, limit: 1_000, ...(cursor ? { cursor } : {}) },
      { token: admin },
    );
    expect(reply.status).toBe(200);
    calls.push(...reply.body.calls);
    cursor = reply.body.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return calls;
}

function exportUrl(params: Record<string, string>): URL {
  return new URL(`${routes.callExport()}?${new URLSearchParams({ project, ...params })}`, server.url);
}

async function download(params: Record<string, string>, token = admin): Promise<Response> {
  return fetch(exportUrl(params), { headers: { authorization: `Bearer ${token}` } });
}

describe(`export (${testStorageKind()})`, () => {
  it('streams a calls query as JSON Lines, each line the call the read API answers', async () => {
    const query = { userId: 'user1', sort: { field: 'startedAt', direction: 'asc' } } as const;
    const response = await download({ format: 'jsonl', query: JSON.stringify(query) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    // Streamed: no length known in advance.
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    const lines = (await response.text()).trimEnd().split('\n');
    const expected = await answered(query);
    expect(expected.length).toBeGreaterThan(200);
    expect(lines.map((line) => JSON.parse(line))).toEqual(expected);
  });

  it('writes Parquet that a second library reads back equal to the read API', async () => {
    const query = { text: COMMON_WORD, sort: { field: 'startedAt', direction: 'desc' } } as const;
    const response = await download({ format: 'parquet', query: JSON.stringify(query) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.apache.parquet');
    const table = tableFromIPC(readParquet(new Uint8Array(await response.arrayBuffer())).intoIPCStream());
    expect(table.schema.fields.map((field) => field.name)).toEqual(PARQUET_CALL_COLUMNS.map((c) => c.name));
    const rows = table.toArray().map((row) => row.toJSON() as Record<string, unknown>);
    const expected = await answered(query);
    expect(rows).toHaveLength(1_399);
    expect(rows).toEqual(
      expected.map((call) => ({
        project: call.project,
        id: call.id,
        trace_id: call.traceId,
        parent_id: call.parentId,
        op_name: call.opName,
        display_name: call.displayName ?? null,
        started_at_ms: call.startedAt,
        ended_at_ms: call.endedAt,
        status: call.status,
        session_id: call.sessionId ?? null,
        inputs: JSON.stringify(call.inputs),
        output: call.output == null ? null : JSON.stringify(call.output),
        exception: call.exception == null ? null : JSON.stringify(call.exception),
        summary: call.summary == null ? null : JSON.stringify(call.summary),
        attributes: JSON.stringify(call.attributes),
        feedback: JSON.stringify(call.feedback ?? []),
      })),
    );
  });

  it('leaves deduplicated values as their digests when asked', async () => {
    const query = JSON.stringify({ parentId: null });
    const resolved = await (await download({ format: 'jsonl', query, values: 'resolved' })).text();
    const digests = await (await download({ format: 'jsonl', query, values: 'digests' })).text();
    expect(resolved).toContain('ownvalue');
    expect(resolved).not.toContain('"_weft":"value"');
    expect(digests).not.toContain('ownvalue');
    expect(digests).toContain('"_weft":"value"');
  });

  it('answers a missing project, a bad format or query and a foreign token with a 4xx naming the problem', async () => {
    const cases: [URL, string, number, string, string][] = [
      [exportUrl({ project: 'nowhere' }), admin, 404, 'WEFT_NOT_FOUND', 'nowhere'],
      [exportUrl({ format: 'csv' }), admin, 400, 'WEFT_INVALID_REQUEST', 'format'],
      [exportUrl({ query: '{not json' }), admin, 400, 'WEFT_INVALID_REQUEST', 'query'],
      [exportUrl({ query: JSON.stringify({ colour: 'red' }) }), admin, 400, 'WEFT_INVALID_REQUEST', 'colour'],
      [exportUrl({ project: 'other' }), scoped, 403, 'WEFT_FORBIDDEN', 'other'],
    ];
    for (const [url, token, status, code, text] of cases) {
      const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      const body = await response.json();
      expect(response.status, url.search).toBe(status);
      expect(body.error.code).toBe(code);
      expect(JSON.stringify(body.error)).toContain(text);
    }
    const own = await download({ format: 'jsonl' }, scoped);
    expect(own.status).toBe(200);
    await own.body?.cancel();
  });
});
