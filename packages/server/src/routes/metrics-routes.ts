import { metricsQuery, routes } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { runMetricsQuery } from '../metrics/index.js';
import { validate } from '../middleware/index.js';
import type { Storage } from '../storage/index.js';

const parseQuery = validate(metricsQuery, 'body');

/** Metrics over time, from the rollups kept at ingest (raw calls for filters they do not keep). */
export function registerMetricsRoutes(app: FastifyInstance, { storage }: { storage: Storage }): void {
  app.post(routes.metricsQuery(), async (request) => runMetricsQuery(storage, parseQuery(request.body)));
}
