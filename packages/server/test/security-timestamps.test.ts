import { callIdOfSpan, MAX_TIMESTAMP_MS, routes } from '@weft/protocol';
import { startTestServer } from '@weft/test-server';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { callIdOf, completeOf, startOf } from './support/calls.js';
import { type BodyFormat, get, post, send } from './support/http.js';
import { otlpJson, traceRequest } from './support/otlp-bodies.js';

const TRACE = 'aa'.repeat(16);

describe('timestamps outside 1970 … 9999', () => {
  it.each<BodyFormat>(['json', 'msgpack'])(
    'regression: refuses startedAt 1e300, endedAt past Date and negative times with 400 naming the field (%s)',
    async (format) => {
      const server = await startTestServer();
      for (const [item, path] of [
        [startOf(1, { startedAt: 1e300 }), 'items.0.startedAt'],
        [completeOf(2, { endedAt: 8.64e15 + 1 }), 'items.0.endedAt'],
        [startOf(3, { startedAt: -1 }), 'items.0.startedAt'],
      ] as const) {
        const reply = await post(server.url, routes.callBatch(), { project: 'p', items: [item] }, { format });
        expect(reply.status).toBe(400);
        expect(reply.body.error).toMatchObject({ code: 'WEFT_INVALID_REQUEST', path, index: 0 });
        expect(reply.body.error.message).toContain('9999');
      }
      // The last millisecond of 9999 is a time like any other.
      const last = completeOf(4, { startedAt: MAX_TIMESTAMP_MS, endedAt: MAX_TIMESTAMP_MS });
      expect(
        (await post(server.url, routes.callBatch(), { project: 'p', items: [last] }, { format })).status,
      ).toBe(200);
      const projects = await get(server.url, routes.projectList());
      expect(projects.body.projects).toEqual([{ name: 'p', callCount: 1, lastCallAt: MAX_TIMESTAMP_MS }]);
    },
  );

  it('regression: rejects an OTLP span timed past the year 9999, naming the field, and stores the others', async () => {
    const server = await startTestServer();
    const far = `1${'0'.repeat(300)}`;
    const { headers, body } = otlpJson(
      traceRequest(
        [
          { traceId: TRACE, spanId: '01'.repeat(8), startTimeUnixNano: far, endTimeUnixNano: far },
          { traceId: TRACE, spanId: '02'.repeat(8) },
        ],
        { 'service.name': 'otel' },
      ),
    );
    const reply = await send(server.url, routes.otlpTraces(), {
      method: 'POST',
      headers,
      body: body as BodyInit,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.partialSuccess.rejectedSpans).toBe('1');
    expect(reply.body.partialSuccess.errorMessage).toContain('startTimeUnixNano');
    expect(reply.body.partialSuccess.errorMessage).toContain('after the year 9999');
    expect((await get(server.url, routes.call('otel', callIdOfSpan(TRACE, '02'.repeat(8))))).status).toBe(
      200,
    );
    expect((await get(server.url, routes.call('otel', callIdOfSpan(TRACE, '01'.repeat(8))))).status).toBe(
      404,
    );
  });

  it('regression: /v1/projects reports a time stored before ingest checked it as null, never 1e300', async () => {
    const server = await startTestServer();
    expect(
      (await post(server.url, routes.callBatch(), { project: 'old', items: [completeOf(1)] })).status,
    ).toBe(200);
    await server.stop();
    // What an older server stored for `startedAt: 1e300`.
    const db = new Database(server.dbPath);
    db.prepare('UPDATE calls SET started_at = ? WHERE id = ?').run(1e300, callIdOf(1));
    db.close();
    await server.start();
    const projects = await get(server.url, routes.projectList());
    expect(projects.status).toBe(200);
    expect(projects.body.projects).toEqual([{ name: 'old', callCount: 1, lastCallAt: null }]);
  });
});
