import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { HandlerLifetime } from './handler-lifetime.js';

function recordedApp() {
  const app = Fastify();
  const events: string[] = [];
  const handling = new HandlerLifetime(app);
  handling.listen({
    started: (request) => events.push(`started ${request.url}`),
    ended: (request) => events.push(`ended ${request.url}`),
  });
  return { app, events };
}

describe('HandlerLifetime', () => {
  it('starts before the handler runs and ends when its answer starts, for answers and failures alike', async () => {
    const { app, events } = recordedApp();
    app.get('/ok', async () => {
      events.push('handler /ok');
      return {};
    });
    app.get('/fails', async () => {
      events.push('handler /fails');
      throw new Error('boom');
    });
    expect((await app.inject('/ok')).statusCode).toBe(200);
    expect((await app.inject('/fails')).statusCode).toBe(500);
    expect(events).toEqual([
      'started /ok',
      'handler /ok',
      'ended /ok',
      'started /fails',
      'handler /fails',
      'ended /fails',
    ]);
  });

  it('neither starts nor ends a request refused before its handler', async () => {
    const { app, events } = recordedApp();
    app.addHook('onRequest', async (request, reply) => {
      if (request.url === '/refused') await reply.code(503).send({ refused: true });
    });
    app.post('/refused', async () => ({}));
    app.post('/bad-body', async () => ({}));
    expect((await app.inject('/refused')).statusCode).toBe(503);
    const badBody = await app.inject({
      method: 'POST',
      url: '/bad-body',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(badBody.statusCode).toBe(400);
    expect(events).toEqual([]);
  });

  it('calls its listeners in the order they were added', async () => {
    const app = Fastify();
    const handling = new HandlerLifetime(app);
    const events: string[] = [];
    for (const name of ['first', 'second'])
      handling.listen({
        started: () => events.push(`${name} started`),
        ended: () => events.push(`${name} ended`),
      });
    app.get('/', async () => ({}));
    await app.inject('/');
    expect(events).toEqual(['first started', 'second started', 'first ended', 'second ended']);
  });
});
