import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import { resetWeft } from '../src/testing/index.js';
import { startTestServer, type TestServer } from '@weft/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ register: false });
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await resetWeft();
});

class Prompt extends weft.WeftObject {
  constructor(readonly template: string) {
    super();
  }
}
class Named extends weft.WeftObject {
  override name = 'custom-name';
  constructor(readonly value: number) {
    super();
  }
}

it('publish returns a ref, get reads it back, and calls containing the value record the ref', async () => {
  const client = weft.init({ project: 'objects', url: server.url, outbox: false, handleExit: false });
  const guidelines = { rules: ['be brief', 'cite sources'], version: 2 };
  const ref = await weft.publish(guidelines, { name: 'guidelines' });
  expect(ref).toMatchObject({ project: 'objects', name: 'guidelines' });
  expect(ref.uri).toBe(`weft:///objects/object/guidelines:${ref.digest}`);
  expect(await weft.get(ref)).toEqual(guidelines);
  // Publishing equal contents again is the same version.
  expect(
    (await weft.publish({ version: 2, rules: ['be brief', 'cite sources'] }, { name: 'guidelines' })).digest,
  ).toBe(ref.digest);

  const answer = weft.op(function answerWith(rules: typeof guidelines, prompt: Prompt, named: Named) {
    void named; // only recorded: the call's inputs name it
    return { ok: rules.rules.length, prompt };
  });
  answer(guidelines, new Prompt('Hello {name}'), new Named(7));
  await client.flush();
  const [call] = await client.getCalls({ opName: 'answerWith' }).toArray();
  expect(call?.inputs.rules).toBe(ref.uri);
  expect(call?.inputs.prompt).toMatch(/^weft:\/\/\/objects\/object\/Prompt:/);
  expect(call?.inputs.named).toMatch(/^weft:\/\/\/objects\/object\/custom-name:/);
  expect(call?.output).toEqual({ ok: 2, prompt: call?.inputs.prompt });
  expect(await client.get(call?.inputs.prompt as string)).toEqual({ template: 'Hello {name}' });
  // A call ref reads the call.
  expect(await client.get(`weft:///objects/call/${call?.id}`)).toMatchObject({ opName: 'answerWith' });
  expect(await client.getCall(call?.id as string)).toMatchObject({ id: call?.id, status: 'success' });
  expect(await client.getCall('01a214fc-d6bd-70ad-9b7f-acd8634797e8')).toBeUndefined();
});

it('rejects a bad object name with a typed error, and publish without a client', async () => {
  await expect(weft.publish({ a: 1 }, { name: 'x' })).rejects.toMatchObject({ code: 'WEFT_NOT_INITIALIZED' });
  weft.init({ project: 'objects', url: server.url, outbox: false, handleExit: false });
  await expect(weft.publish({ a: 1 }, { name: 'has space' })).rejects.toMatchObject({
    code: 'WEFT_INVALID_OPTIONS',
    option: 'name',
  });
});

it('a WeftObject that contains itself is saved without looping', async () => {
  const client = weft.init({ project: 'objects-cycle', url: server.url, outbox: false, handleExit: false });
  class Node extends weft.WeftObject {
    self: unknown;
    constructor(readonly label: string) {
      super();
      this.self = this;
    }
  }
  const make = weft.op(function makeNode() {
    return new Node('loop');
  });
  make();
  const result = await client.flush();
  expect(result).toMatchObject({ sent: 1, objects: 1, objectsFailed: 0, pending: 0 });
});
