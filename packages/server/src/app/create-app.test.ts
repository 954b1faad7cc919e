import { encodeMsgpack, routes } from '@weft/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { SqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import { createApp } from './create-app.js';

function inProcessApp(token?: string) {
  const storage = new SqliteStorage({ path: ':memory:' });
  const app = createApp({ storage, uiDir: false, ...(token ? { token } : {}) });
  onTestFinished(async () => {
    await app.close();
    await storage.close();
  });
  return app;
}

const id = '0190a5f0-0000-7000-8000-0000000000aa';
const batch = {
  project: 'inject',
  items: [
    { type: 'complete', id, traceId: id, parentId: null, opName: 'op', startedAt: 1, endedAt: 2, inputs: {} },
  ],
};

describe('createApp (in-process, no port)', () => {
  it('ingests msgpack and reads the call back through inject', async () => {
    const app = inProcessApp();
    const ingest = await app.inject({
      method: 'POST',
      url: routes.callBatch(),
      headers: { 'content-type': 'application/msgpack' },
      payload: Buffer.from(encodeMsgpack(batch)),
    });
    expect(ingest.json()).toEqual({ accepted: 1 });
    const read = await app.inject({ method: 'GET', url: routes.call('inject', id) });
    expect(read.json()).toMatchObject({ id, status: 'success', startedAt: 1, endedAt: 2 });
  });

  it('maps errors through the one error handler', async () => {
    const app = inProcessApp('t0ken');
    const denied = await app.inject({ method: 'POST', url: routes.callBatch(), payload: batch });
    expect(denied.statusCode).toBe(401);
    expect(denied.json().error.code).toBe('WEFT_UNAUTHORIZED');
    const invalid = await app.inject({
      method: 'POST',
      url: routes.callQuery(),
      headers: { authorization: 'Bearer t0ken' },
      payload: { project: 'inject', limit: 'ten' },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error).toMatchObject({ code: 'WEFT_INVALID_REQUEST', path: 'limit' });
    expect((await app.inject({ method: 'GET', url: routes.health() })).json()).toEqual({ status: 'ok' });
  });

  it('refuses invalid options with WEFT_INVALID_OPTIONS', () => {
    const storage = new SqliteStorage({ path: ':memory:' });
    onTestFinished(() => storage.close());
    expect(() => createApp({ storage, maxBodyBytes: -1 })).toThrow(
      expect.objectContaining({ code: 'WEFT_INVALID_OPTIONS', path: 'maxBodyBytes' }),
    );
  });
});
