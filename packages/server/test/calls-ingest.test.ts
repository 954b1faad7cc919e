import { routes } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callIdOf, completeOf, endOf, startOf } from './support/calls.js';
import { type BodyFormat, get, post } from './support/http.js';
import { startTestServer } from '@weft/test-server';
import { freshTestStorageUrl } from './support/test-storage.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ storage: freshTestStorageUrl(), register: false });
});
afterAll(() => server.close());

const project = 'ingest';
const ingest = (items: unknown[], format: BodyFormat = 'msgpack') =>
  post(server.url, routes.callBatch(), { project, items }, { format });
const readCall = (n: number) => get(server.url, routes.call(project, callIdOf(n)));

describe('call ingest', () => {
  it('merges an end that arrives before its start, and hides the call until the start arrives', async () => {
    expect((await ingest([endOf(1, { summary: { latencyMs: 10, status: 'success' } })])).body).toEqual({
      accepted: 1,
    });
    expect((await readCall(1)).status).toBe(404);
    const listed = await post(server.url, routes.callQuery(), { project, traceId: callIdOf(1) });
    expect(listed.body.calls).toEqual([]);

    await ingest([startOf(1, { displayName: 'first', attributes: { env: 'test' } })]);
    const { status, body } = await readCall(1);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: callIdOf(1),
      displayName: 'first',
      startedAt: 1_700_000_000_001,
      endedAt: 1_700_000_000_011,
      status: 'success',
      inputs: { n: 1 },
      output: { doubled: 2 },
      attributes: { env: 'test' },
      summary: { latencyMs: 10, status: 'success' },
    });
  });

  it('keeps the end fields when a duplicate start arrives after the end, and the start fields on a duplicate end', async () => {
    await ingest([startOf(2, { displayName: 'two' })]);
    expect((await readCall(2)).body).toMatchObject({ status: 'running', endedAt: null, output: null });
    await ingest([endOf(2)]);
    await ingest([startOf(2, { displayName: 'two' }), endOf(2)]);
    await ingest([startOf(2, { displayName: 'two' })]);
    const { body } = await readCall(2);
    expect(body).toMatchObject({
      displayName: 'two',
      status: 'success',
      endedAt: 1_700_000_000_012,
      output: { doubled: 4 },
    });
    expect(body.inputs).toEqual({ n: 2 });
  });

  it('stores a complete record whole, and treats a start, end and complete of the same call as one call', async () => {
    await ingest([completeOf(3), startOf(3), endOf(3)]);
    const { body } = await readCall(3);
    expect(body).toMatchObject({ status: 'success', output: { doubled: 6 }, inputs: { n: 3 } });
    const all = await post(server.url, routes.callQuery(), { project, traceId: callIdOf(3) });
    expect(all.body.calls).toHaveLength(1);
  });

  it('marks a call with an exception as error, keeping the cause chain', async () => {
    const exception = { name: 'TypeError', message: 'boom', cause: { name: 'Error', message: 'root' } };
    await ingest([completeOf(4, { exception, output: undefined })]);
    const { body } = await readCall(4);
    expect(body).toMatchObject({ status: 'error', exception, output: null });
  });

  it('takes the error status from the summary even without an exception', async () => {
    await ingest([startOf(5), endOf(5, { summary: { status: 'error' } })]);
    expect((await readCall(5)).body.status).toBe('error');
  });

  it.each(['json', 'msgpack'] as const)('accepts %s bodies with identical results', async (format) => {
    const n = format === 'json' ? 6 : 7;
    const value = { text: 'héllo ✓', nested: { list: [1, 2.5, null, true] } };
    const reply = await ingest([completeOf(n, { inputs: value, output: value })], format);
    expect(reply).toMatchObject({ status: 200, body: { accepted: 1 } });
    const { body } = await readCall(n);
    expect(body.inputs).toEqual(value);
    expect(body.output).toEqual(value);
  });

  it('stores text holding tabs, newlines, quotes, backslashes and \\N exactly, and filters on it', async () => {
    const odd = "a\tb\nc'd\\e\\N\r\u0000f\b\fg ü 🧵";
    await ingest([
      completeOf(80, {
        displayName: odd,
        sessionId: `s-${odd}`,
        attributes: { [`k\t'${odd}`]: odd, tags: [odd, '\\', "'"] },
        inputs: { text: odd },
      }),
    ]);
    const { body } = await readCall(80);
    expect(body).toMatchObject({
      displayName: odd,
      sessionId: `s-${odd}`,
      attributes: { [`k\t'${odd}`]: odd, tags: [odd, '\\', "'"] },
      inputs: { text: odd },
    });
    const bySession = await post(server.url, routes.callQuery(), { project, sessionId: `s-${odd}` });
    expect(bySession.body.calls.map((c: { id: string }) => c.id)).toEqual([callIdOf(80)]);
    const byAttribute = await post(server.url, routes.callQuery(), {
      project,
      attributes: { [`k\t'${odd}`]: odd, tags: '\\' },
    });
    expect(byAttribute.body.calls.map((c: { id: string }) => c.id)).toEqual([callIdOf(80)]);
  });

  it('accepts application/x-msgpack as msgpack', async () => {
    const reply = await post(
      server.url,
      routes.callBatch(),
      { project, items: [completeOf(8)] },
      { format: 'msgpack', headers: { 'content-type': 'application/x-msgpack' } },
    );
    expect(reply.body).toEqual({ accepted: 1 });
    expect((await readCall(8)).status).toBe(200);
  });

  it('keeps projects apart: the same call id in two projects is two calls', async () => {
    await post(server.url, routes.callBatch(), {
      project: 'other',
      items: [completeOf(9, { opName: 'elsewhere' })],
    });
    await ingest([completeOf(9, { opName: 'here' })]);
    expect((await get(server.url, routes.call('other', callIdOf(9)))).body.opName).toBe('elsewhere');
    expect((await readCall(9)).body.opName).toBe('here');
  });

  it('serves the longest valid project and object names in paths', async () => {
    const longProject = `p${'x'.repeat(127)}`;
    await post(server.url, routes.callBatch(), { project: longProject, items: [completeOf(10)] });
    expect((await get(server.url, routes.call(longProject, callIdOf(10)))).status).toBe(200);
    // Routed to the handler (which finds no such object), not turned away by the router.
    const versions = await get(server.url, routes.objectVersions(longProject, `o${'y'.repeat(255)}`));
    expect(versions.status).toBe(404);
    expect(versions.body.error.message).toContain('No object named');
  });

  it('returns 404 JSON for an unknown call and 400 for a malformed id', async () => {
    const missing = await readCall(999);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('WEFT_NOT_FOUND');
    const bad = await get(server.url, routes.call(project, 'not-a-uuid'));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'WEFT_INVALID_REQUEST', path: 'id' });
  });
});
