import { digestValue, routes } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post } from './support/http.js';
import { startTestServer } from '@weft/test-server';
import { freshTestStorageUrl } from './support/test-storage.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ storage: freshTestStorageUrl(), register: false });
});
afterAll(() => server.close());

const project = 'objects';
const create = (name: string, value: unknown, extra: Record<string, unknown> = {}) =>
  post(
    server.url,
    routes.objectCreate(),
    { project, name, value, digest: digestValue(value), ...extra },
    { format: 'msgpack' },
  );

describe('objects', () => {
  it('rejects a digest that does not match the value, naming both', async () => {
    const value = { prompt: 'hello' };
    const wrong = digestValue({ prompt: 'hell0' });
    const reply = await post(server.url, routes.objectCreate(), { project, name: 'p', value, digest: wrong });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({
      code: 'WEFT_DIGEST_MISMATCH',
      path: 'digest',
      expected: digestValue(value),
      actual: wrong,
    });
    expect((await get(server.url, routes.objectVersions(project, 'p'))).status).toBe(404);
  });

  it('stores a value with an own "__proto__" key as data: the digest matches and it reads back unchanged', async () => {
    const value = JSON.parse('{"__proto__": {"role": "admin"}, "a": [{"__proto__": 1}]}') as Record<
      string,
      unknown
    >;
    const created = await create('proto', value);
    expect(created.status).toBe(200);
    expect(created.body.digest).toBe(digestValue(value));
    const read = await get(server.url, routes.objectRead(project, 'proto', 'latest'));
    expect(Object.keys(read.body.value)).toEqual(['__proto__', 'a']);
    expect(digestValue(read.body.value)).toBe(digestValue(value));
  });

  it('numbers versions from 1 and reads them by digest, latest and vN', async () => {
    const values = [{ v: 'one' }, { v: 'two' }, { v: 'three' }];
    const created = [];
    for (const value of values) created.push((await create('prompt', value)).body);
    expect(created.map((c) => c.version)).toEqual([1, 2, 3]);
    expect(created.every((c) => c.created)).toBe(true);
    expect(created[0].ref).toBe(`weft:///${project}/object/prompt:${digestValue(values[0])}`);

    const byDigest = await get(server.url, routes.objectRead(project, 'prompt', digestValue(values[1])));
    expect(byDigest.body).toMatchObject({ version: 2, value: { v: 'two' }, kind: 'object' });
    expect((await get(server.url, routes.objectRead(project, 'prompt', 'latest'))).body).toMatchObject({
      version: 3,
      value: { v: 'three' },
    });
    expect((await get(server.url, routes.objectRead(project, 'prompt', 'v1'))).body).toMatchObject({
      version: 1,
      value: { v: 'one' },
    });

    const versions = await get(server.url, routes.objectVersions(project, 'prompt'));
    expect(versions.body.versions.map((v: { digest: string }) => v.digest)).toEqual(
      values.map((v) => digestValue(v)),
    );
  });

  it('treats re-creating an existing digest as a no-op returning that version', async () => {
    const value = { same: true, list: [1, 2] };
    const first = await create('stable', value);
    await create('stable', { other: 1 });
    // Key order does not matter: the canonical digest is the same.
    const again = await create('stable', { list: [1, 2], same: true });
    expect(again.body).toMatchObject({ version: 1, created: false, digest: first.body.digest });
    const versions = await get(server.url, routes.objectVersions(project, 'stable'));
    expect(versions.body.versions).toHaveLength(2);
  });

  it('keeps the kind of op versions and lists the names of a project', async () => {
    await create('my_op', { code: 'def f(): pass' }, { kind: 'op' });
    const read = await get(server.url, routes.objectRead(project, 'my_op', 'latest'));
    expect(read.body.kind).toBe('op');
    expect(read.body.ref).toMatch(new RegExp(`^weft:///${project}/op/my_op:`));
    const list = await get(server.url, routes.objectList(project));
    const names = list.body.objects.map((o: { name: string }) => o.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['my_op', 'prompt', 'stable']));
    expect(list.body.objects.find((o: { name: string }) => o.name === 'prompt')).toMatchObject({
      versionCount: 3,
      kind: 'object',
    });
  });

  it('answers 404 for unknown names and versions, 400 for a malformed selector', async () => {
    expect((await get(server.url, routes.objectRead(project, 'prompt', 'v99'))).status).toBe(404);
    expect((await get(server.url, routes.objectRead(project, 'ghost', 'latest'))).status).toBe(404);
    // `newest` would be a label (404 while unset); `-newest` is no selector at all.
    expect((await get(server.url, routes.objectRead(project, 'prompt', 'newest'))).status).toBe(404);
    const bad = await get(server.url, routes.objectRead(project, 'prompt', '-newest'));
    expect(bad.status).toBe(400);
    expect(bad.body.error.path).toBe('version');
    expect((await get(server.url, routes.objectList('empty-project'))).body).toEqual({ objects: [] });
  });
});
