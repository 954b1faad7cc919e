import { PROTOCOL_VERSION, routes } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { SERVER_VERSION } from '../version/index.js';

/** Health and version: open without a token, so probes and clients can check compatibility. */
export function registerSystemRoutes(app: FastifyInstance): void {
  app.get(routes.health(), async () => ({ status: 'ok' as const }));
  app.get(routes.version(), async () => ({ version: SERVER_VERSION, protocolVersion: PROTOCOL_VERSION }));
}
