import { digestValue, routes } from '@weft/protocol';
import { startTestServer } from '@weft/test-server';
import { describe, expect, it } from 'vitest';
import { callIdOf, completeOf } from './support/calls.js';
import { type BodyFormat, get, post } from './support/http.js';

// Keys named `__proto__` and `constructor` are data: a traced JSON API
// response may hold them. Both formats keep them as sent, and nothing's
// prototype changes on the way.

/** A value holding the keys, built by JSON.parse so `__proto__` is an own key. */
const hostile = () =>
  JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "a": 1}');

describe('keys named __proto__ and constructor', () => {
  it.each<BodyFormat>(['json', 'msgpack'])(
    'regression: are kept as data in inputs, attributes and output, and pollute nothing (%s)',
    async (format) => {
      const server = await startTestServer();
      const item = completeOf(1, { inputs: hostile(), attributes: hostile(), output: hostile() });
      const stored = await post(server.url, routes.callBatch(), { project: 'p', items: [item] }, { format });
      expect(stored.status).toBe(200);
      const read = await get(server.url, routes.call('p', callIdOf(1)));
      expect(read.status).toBe(200);
      const call = read.body;
      for (const field of ['inputs', 'attributes', 'output']) {
        expect([field, Object.keys(call[field])]).toEqual([field, ['__proto__', 'constructor', 'a']]);
        expect([field, JSON.stringify(call[field])]).toEqual([field, JSON.stringify(hostile())]);
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  it.each<BodyFormat>(['json', 'msgpack'])(
    'are kept in an object version, whose digest covers them (%s)',
    async (format) => {
      const server = await startTestServer();
      const value = hostile();
      const created = await post(
        server.url,
        routes.objectCreate(),
        { project: 'p', name: 'Config', digest: digestValue(value), value },
        { format },
      );
      expect(created.status).toBe(200);
      const read = await get(server.url, routes.objectRead('p', 'Config', 'v1'));
      expect(read.status).toBe(200);
      // Objects are stored in canonical form: keys sorted.
      expect(Object.keys(read.body.value)).toEqual(['__proto__', 'a', 'constructor']);
      expect(Object.getOwnPropertyDescriptor(read.body.value, '__proto__')?.value).toEqual({
        polluted: 'yes',
      });
    },
  );
});
