import Fastify from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import { errorHandler } from '../http/index.js';
import { bodyShape } from './body-shape.js';

/** A bare app whose one route echoes the body, behind bodyShape. */
function app(maxDepth?: number) {
  const instance = Fastify();
  onTestFinished(() => instance.close());
  instance.setErrorHandler(errorHandler);
  instance.addHook('preValidation', bodyShape(maxDepth === undefined ? {} : { maxDepth }));
  // Bodies arrive already decoded; the hook sees what a parser produced.
  instance.addContentTypeParser('application/x-test', (request, _payload, done) => {
    done(
      null,
      (request.headers as { 'x-body'?: string })['x-body'] === 'bigint' ? { a: [1, { b: 2n }] } : undefined,
    );
  });
  instance.post('/echo', async () => ({ ok: true }));
  return instance;
}

function nested(depth: number): unknown {
  let value: unknown = 0;
  for (let i = 0; i < depth; i++) value = { k: value };
  return value;
}

describe('bodyShape', () => {
  it('passes containers nested maxDepth levels and refuses one level more, naming the path', async () => {
    const instance = app(5);
    const ok = await instance.inject({ method: 'POST', url: '/echo', payload: nested(5) as object });
    expect(ok.statusCode).toBe(200);
    const deep = await instance.inject({ method: 'POST', url: '/echo', payload: nested(6) as object });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().error).toMatchObject({ code: 'WEFT_INVALID_REQUEST', path: 'k' });
    expect(deep.json().error.message).toContain('(at k.k.k.k.k)');
  });

  it('names the list item of a too-deep value, abbreviates where inside, and never recurses', async () => {
    const instance = app();
    const text = `{"items":[0,${'{"k":'.repeat(20_000)}0${'}'.repeat(20_000)}]}`;
    const deep = await instance.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: text,
    });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().error).toMatchObject({ path: 'items.1', index: 1 });
    expect(deep.json().error.message).toMatch(/\(at items\.1\.k\.k\.k\.k\.k\.k\.…\(\d+ more levels\)\)/);
  });

  it('refuses a bigint anywhere, naming where', async () => {
    const instance = app();
    const reply = await instance.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/x-test', 'x-body': 'bigint' },
      payload: 'x',
    });
    expect(reply.statusCode).toBe(400);
    expect(reply.json().error).toMatchObject({ code: 'WEFT_INVALID_REQUEST', path: 'a.1.b', index: 1 });
  });
});
