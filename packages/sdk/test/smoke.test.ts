import { afterAll, beforeAll, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import { resetWeft } from '../src/testing/index.js';
import { startTestServer, type TestServer } from '@weft/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ register: false });
});
afterAll(async () => {
  await resetWeft();
  await server.close();
});

class Leaf extends weft.WeftObject {
  constructor(public value: number) {
    super();
  }
}

it('traces nested calls to the server', async () => {
  const client = weft.init({ project: 'smoke', url: server.url, outbox: false });
  const child = weft.op(async function childOp(x: number) {
    return { x, leaf: new Leaf(x), usage: { prompt_tokens: 2, completion_tokens: 3 }, model: 'm1' };
  });
  const parent = weft.op(async function parentOp(n: number) {
    const out = [];
    for (let i = 0; i < n; i++) out.push(await child(i));
    return out.length;
  });
  expect(await parent(3)).toBe(3);
  const result = await weft.flush();
  expect(result.sent).toBe(4);
  const calls = await client.getCalls().toArray();
  expect(calls).toHaveLength(4);
  const root = calls.find((c) => c.opName === 'parentOp');
  expect(root?.summary?.usage?.m1?.totalTokens).toBe(15);
  const kid = calls.find((c) => c.opName === 'childOp');
  expect(kid?.parentId).toBe(root?.id);
  const leafRef = (kid?.output as { leaf: string } | undefined)?.leaf as string;
  expect(await client.get(leafRef)).toEqual({ value: kid?.inputs.x });
});
