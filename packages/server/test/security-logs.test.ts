import { digestValue, routes } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { completeOf } from './support/calls.js';
import { get, post, send } from './support/http.js';
import { startTestServer } from '@weft/test-server';
import { freshTestStorageUrl } from './support/test-storage.js';

const admin = 'ADMIN-d41d8cd98f00b204';
const scoped = 'SCOPED-e9800998ecf8427e';
const bodySecret = 'BODY-SECRET-5eb63bbbe01eeed0';

/** Every line the server logs, as one string. */
function captureLog() {
  const lines: string[] = [];
  return { stream: { write: (line: string) => lines.push(line) }, text: () => lines.join(''), lines };
}

describe('secrets never reach logs or error messages', () => {
  it('logs auth failures, refusals and bad requests at trace level without a token, header or body', async () => {
    const log = captureLog();
    const server = await startTestServer({
      token: admin,
      projectTokens: { [scoped]: ['mine'] },
      logStream: log.stream,
      logLevel: 'trace',
      storage: freshTestStorageUrl(),
    });
    const answers: string[] = [];
    const keep = (reply: { status: number; body: unknown }) => {
      answers.push(JSON.stringify(reply.body));
      return reply.status;
    };
    const json = { 'content-type': 'application/json' };
    // Wrong tokens that contain the real ones, in every spelling of the header.
    for (const authorization of [
      `Bearer ${admin}x`,
      `bearer ${scoped.slice(0, -1)}`,
      `Basic ${admin}`,
      admin,
      `Bearer  ${scoped}0`,
    ]) {
      expect(
        keep(await post(server.url, routes.callQuery(), { project: 'mine' }, { headers: { authorization } })),
      ).toBe(401);
    }
    // A scoped token on another project, a malformed body and an invalid one carrying a secret.
    expect(keep(await post(server.url, routes.callQuery(), { project: 'theirs' }, { token: scoped }))).toBe(
      403,
    );
    expect(
      keep(
        await send(server.url, routes.callBatch(), {
          method: 'POST',
          body: `{"project":"mine","items":[{"inputs":"${bodySecret}"`,
          headers: { ...json, authorization: `Bearer ${admin}` },
        }),
      ),
    ).toBe(400);
    const badBatch = { project: 'mine', items: [{ ...completeOf(1), startedAt: bodySecret }] };
    expect(
      keep(await post(server.url, routes.callBatch(), badBatch, { token: scoped, format: 'msgpack' })),
    ).toBe(400);
    const value = { note: bodySecret };
    const mismatch = { project: 'mine', name: 'o', kind: 'object', value, digest: digestValue({ other: 1 }) };
    expect(keep(await post(server.url, routes.objectCreate(), mismatch, { token: admin }))).toBe(400);
    // Successes log too.
    expect(
      keep(
        await post(
          server.url,
          routes.callBatch(),
          { project: 'mine', items: [completeOf(2)] },
          { token: scoped },
        ),
      ),
    ).toBe(200);
    expect(keep(await get(server.url, routes.objectList('mine'), { token: admin }))).toBe(200);

    const text = log.text();
    // The capture works: every request and every refusal is there, by code.
    expect(log.lines.length).toBeGreaterThanOrEqual(20);
    expect(text).toContain('"code":"WEFT_UNAUTHORIZED"');
    expect(text).toContain('"code":"WEFT_FORBIDDEN"');
    expect(text).toContain('"code":"WEFT_INVALID_REQUEST"');
    for (const secret of [admin, scoped, scoped.slice(0, -1), bodySecret, 'authorization', 'Bearer']) {
      expect(text, secret).not.toContain(secret);
    }
    for (const secret of [admin, scoped, scoped.slice(0, -1)]) {
      for (const answer of answers) expect(answer).not.toContain(secret);
    }
  });

  it('writes nothing when no logStream is given', async () => {
    // The default: the server is silent, and stdout stays the CLI's.
    const server = await startTestServer({ token: admin, storage: freshTestStorageUrl() });
    expect((await post(server.url, routes.callQuery(), { project: 'p' })).status).toBe(401);
  });
});
