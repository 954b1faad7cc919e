import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@weft/test-server';
import { listServerCalls, nextMessage, runChild } from '../support/index.js';

// examples/serverless run on a stand-in for each platform (fake-platform.ts),
// frozen with SIGSTOP at the moment the platform would freeze or end them.
// TMPDIR points the examples' outbox (under os.tmpdir(), as on Lambda) at a temp folder.
const platformScript = fileURLToPath(new URL('./fake-platform.ts', import.meta.url));
const fakeNextServer = fileURLToPath(new URL('./fake-next-server.ts', import.meta.url));

let server: TestServer;
let tmp: string;
beforeAll(async () => {
  server = await startTestServer({ register: afterAll });
  tmp = await mkdtemp(join(tmpdir(), 'weft-serverless-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe.each([
  { platform: 'lambda', example: 'aws-lambda.mjs' },
  { platform: 'vercel', example: 'vercel-wait-until.mjs' },
  { platform: 'next', example: 'next-after.mjs' },
  { platform: 'worker', example: 'cloudflare-worker.mjs' },
])('examples/serverless/$example', ({ platform }) => {
  it('has each request’s calls on the server when the platform freezes the instance', async () => {
    const project = `serverless-${platform}`;
    const child = await runChild(platformScript, {
      args: [platform],
      ipc: true,
      aliases: { 'next/server': fakeNextServer },
      env: { WEFT_PROJECT: project, WEFT_URL: server.url, TMPDIR: tmp },
    });
    await nextMessage(child.child, 'ready');

    for (const [i, question] of ['why?', 'how?'].entries()) {
      const responded = nextMessage<{ body: { answer: string } }>(child.child, 'responded');
      const finished = nextMessage(child.child, 'finished');
      child.child.send({ question });
      expect((await responded).body.answer).toBe(`You asked: ${question}`);
      await finished;
      child.child.kill('SIGSTOP');
      const calls = await listServerCalls(server.url, project);
      expect(calls.map((c) => [c.opName, c.inputs.question, c.status])).toEqual(
        ['why?', 'how?'].slice(0, i + 1).map((q) => ['answer', q, 'success']),
      );
      expect(calls[i]?.summary?.costUsd).toBeGreaterThan(0);
      child.child.kill('SIGCONT');
    }
  });
});
