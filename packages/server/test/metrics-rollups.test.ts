import { type Call, type MetricsQuery, routes } from '@weft/protocol';
import { startTestServer } from '@weft/test-server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, SCENARIO_MS, SCENARIO_START, scenarioCalls } from './support/call-scenario.js';
import { post } from './support/http.js';
import { expectMetricsMatch } from './support/metrics-oracle.js';
import { freshTestStorageUrl } from './support/test-storage.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ storage: freshTestStorageUrl(), register: false });
});
afterAll(() => server.close());

const CALL_MEASURES = [
  'count',
  'errors',
  'errorRate',
  'latency.mean',
  'latency.p50',
  'latency.p95',
  'latency.p99',
  'ttft.p95',
  'tokens.input',
  'tokens.output',
  'tokens.cached',
  'cost',
] as const;
const FEEDBACK_MEASURES = [
  { feedback: 'quality', stat: 'mean' },
  { feedback: 'thumbs', stat: 'mean' },
  { feedback: 'thumbs', stat: 'distribution' },
] as const;

/** A query's shape: its split, filter and buckets, and its range when not the scenario's. */
type Shape = Pick<MetricsQuery, 'groupBy' | 'filter' | 'bucket' | 'timeZone'> &
  Partial<Pick<MetricsQuery, 'from' | 'to'>>;

const MINUTE = 60_000;
/** A range whose ends fall inside hours: read from minute rows at either end, hour rows between (as a dashboard's). */
const OFF_THE_HOUR = { from: SCENARIO_START + 7 * MINUTE, to: SCENARIO_START + SCENARIO_MS - 7 * MINUTE };

/** Splits and filters rollups keep (each query below must be answered from them). */
const SHAPES: Shape[] = [
  { bucket: '15m' },
  { bucket: 'hour', timeZone: 'Asia/Kolkata' },
  { bucket: 'hour', groupBy: 'op', filter: { parentId: null } },
  { bucket: '15m', groupBy: 'model' },
  { bucket: 'hour', groupBy: 'tag', filter: { opName: 'chat' } },
  { bucket: 'hour', groupBy: 'version', filter: { status: 'error' } },
  { bucket: 'hour', groupBy: 'user' },
  { bucket: 'total', groupBy: 'session' },
  { bucket: 'hour', filter: { userId: 'ana' } },
  { bucket: 'hour', groupBy: 'op', filter: { tag: 'b' } },
  { bucket: 'total', ...OFF_THE_HOUR },
  { bucket: 'total', groupBy: 'op', ...OFF_THE_HOUR },
  // Buckets on a grid whose first is cut short by the range's start.
  { bucket: '15m', ...OFF_THE_HOUR },
];

/** Queries rollups cannot answer: read from the raw calls, with the same answer. */
const RAW_SHAPES: Shape[] = [
  // Users are kept per hour only.
  { bucket: '15m', filter: { userId: 'ana' } },
  { bucket: 'hour', groupBy: 'model', filter: { tag: 'a' } },
  { bucket: 'hour', filter: { feedback: { name: 'thumbs' } } },
];

let projects = 0;

async function readAll(project: string): Promise<Call[]> {
  const calls: Call[] = [];
  let cursor: string | undefined;
  do {
    const page = await post(server.url, routes.callQuery(), {
      project,
      limit: 1_000,
      ...(cursor ? { cursor } : {}),
    });
    expect(page.status).toBe(200);
    calls.push(...page.body.calls);
    cursor = page.body.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return calls;
}

describe('metrics rollups', () => {
  it('equal a recomputation from the raw calls, whatever the order, repeats and restarts of ingest', async () => {
    await fc.assert(
      fc.asyncProperty(
        scenarioCalls(1).chain((calls) => fc.tuple(fc.constant(calls), deliveries(calls), fc.nat())),
        async ([, batches, restartAt]) => {
          const project = `rollups-${++projects}`;
          for (const [index, items] of batches.entries()) {
            const restart = index === restartAt % batches.length;
            if (restart) await server.restart();
            const send = () => post(server.url, routes.callBatch(), { project, items });
            // A keep-alive socket of the stopped server may be picked once more: that send fails before the server sees it.
            const reply = restart ? await send().catch(send) : await send();
            expect(reply.status, JSON.stringify(reply.body)).toBe(200);
          }
          const calls = await readAll(project);
          for (const shape of [...SHAPES, ...RAW_SHAPES]) {
            const query = {
              project,
              from: SCENARIO_START,
              to: SCENARIO_START + SCENARIO_MS,
              maxGroups: 50,
              measures:
                shape.groupBy === undefined ? [...CALL_MEASURES, ...FEEDBACK_MEASURES] : [...CALL_MEASURES],
              ...shape,
            };
            const reply = await post(server.url, routes.metricsQuery(), query);
            expect(reply.status, JSON.stringify(reply.body)).toBe(200);
            expect(reply.body.source, JSON.stringify(shape)).toBe(SHAPES.includes(shape) ? 'rollup' : 'raw');
            expectMetricsMatch(reply.body, calls, query);
          }
          // Each measure alone: a rollup read fetches only the columns its measures need.
          for (const measure of CALL_MEASURES) {
            const query = { project, from: SCENARIO_START, to: SCENARIO_START + SCENARIO_MS, maxGroups: 50 };
            const alone = { ...query, ...(SHAPES[3] as Shape), measures: [measure] };
            const reply = await post(server.url, routes.metricsQuery(), alone);
            expect(reply.status, JSON.stringify(reply.body)).toBe(200);
            expectMetricsMatch(reply.body, calls, alone);
          }
        },
      ),
      { numRuns: 8 },
    );
    // Each run sends up to ~160 batches and restarts the server: seconds each on a loaded machine.
  }, 180_000);
});
