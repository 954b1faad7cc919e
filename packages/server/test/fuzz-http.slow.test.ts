import { once } from 'node:events';
import { connect } from 'node:net';
import { routes } from '@weft/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  encodeBody,
  expectAlive,
  expectHandled,
  httpSender,
  pathCase,
  postCase,
  type RawRequest,
  rawBodyCase,
  type Send,
  seedVictim,
  snapshotVictim,
  type VictimSeed,
} from './support/fuzz-harness.js';
import { startTestServer, type TestServer } from '@weft/test-server';
import { freshTestStorageUrl } from './support/test-storage.js';

// The same hostile requests over a real socket to a real server (SQLite file
// in a temp dir), fewer of them, with a small body limit so long values hit
// 413; then requests that are not even valid HTTP.

const seed = Number(process.env.WEFT_FUZZ_SEED ?? Date.now() % 2 ** 31);

const anyRequest: fc.Arbitrary<RawRequest> = fc.oneof(
  postCase.map(({ url, body, format }): RawRequest => ({ method: 'POST', url, ...encodeBody(body, format) })),
  rawBodyCase.map(
    ({ url, contentType, body }): RawRequest => ({
      method: 'POST',
      url,
      headers: contentType === '' ? {} : { 'content-type': contentType },
      body: Buffer.from(body),
    }),
  ),
  pathCase,
);

/** Writes raw bytes to the server and resolves with what it answers before closing. */
async function rawExchange(server: TestServer, bytes: string): Promise<string> {
  const socket = connect({ host: '127.0.0.1', port: server.port });
  await once(socket, 'connect');
  let answer = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => (answer += chunk));
  socket.end(bytes, 'latin1');
  await once(socket, 'close');
  return answer;
}

describe('fuzz over real HTTP', () => {
  let server: TestServer;
  let send: Send;
  let victim: VictimSeed;
  let before: unknown;

  beforeAll(async () => {
    server = await startTestServer({
      maxBodyBytes: 64 * 1024,
      storage: freshTestStorageUrl(),
      register: false,
    });
    send = httpSender(server.url);
    victim = await seedVictim(send);
    before = await snapshotVictim(send, victim);
  });
  afterAll(() => server?.close());

  it('answers every hostile request with a 2xx or a clear 4xx and leaves the victim untouched', async () => {
    await fc.assert(
      fc.asyncProperty(anyRequest, async (request) => {
        const reply = await send(request);
        expectHandled(reply, `${request.method} ${request.url}`);
        await expectAlive(send);
      }),
      { numRuns: 400, seed },
    );
    expect(await snapshotVictim(send, victim)).toEqual(before);
  });

  it('regression: a URL past the header limit got a non-Weft 431 and a silently reset keep-alive socket', async () => {
    const long = await send({ method: 'GET', url: `/v1/calls/${'x'.repeat(70_000)}/y` });
    expectHandled(long, 'long URL');
    expect(long.status).toBe(431);
    expect(JSON.parse(long.text).error.code).toBe('WEFT_HEADERS_TOO_LARGE');
    // The next request on the client's keep-alive pool must not hit the closed socket.
    await expectAlive(send);
  });

  it('answers paths the in-process fuzz cannot inject (backslashes, protocol-relative) with JSON', async () => {
    for (const url of [
      '/\\/?offset=1&offset=2',
      '/\\/',
      '/\\\\evil/v1/calls/victim/x',
      '//v1/files/victim/x',
    ]) {
      const reply = await send({ method: 'GET', url });
      expectHandled(reply, url);
      expect(reply.text).not.toContain('victim file bytes');
    }
    await expectAlive(send);
  });

  it("answers an oversized body with 413 and the client's next requests still work", async () => {
    const big = await send({
      method: 'POST',
      url: routes.callBatch(),
      ...encodeBody({ project: 'fuzz', pad: 'x'.repeat(200_000) }, 'json'),
    });
    expectHandled(big, 'oversized body');
    expect(big.status).toBe(413);
    await expectAlive(send);
    await expectAlive(send);
  });

  it('survives requests that are not valid HTTP, and answers /health after each', async () => {
    const bad = [
      'GARBAGE\r\n\r\n',
      'GET /health HTTP/9.9\r\n\r\n',
      'GET /v1/calls/../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n',
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'POST /v1/calls/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"project"',
      'POST /v1/calls/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      'POST /v1/calls/batch HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n{}{}{}',
      'POST /v1/calls/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n20000\r\n',
      'GET /health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \u00ff\u0000\r\n\r\n',
      '\u0000\u0001\u0002\r\n\r\n',
    ];
    for (const bytes of bad) {
      const answer = await rawExchange(server, bytes);
      // Either an HTTP answer that is not a 5xx, or a closed connection.
      expect(answer, JSON.stringify(bytes.slice(0, 80))).not.toMatch(/^HTTP\/1\.1 5\d\d/);
      await expectAlive(send);
    }
    expect(await snapshotVictim(send, victim)).toEqual(before);
  });
});
