import type { ObjectPut } from '../../src/index.js';
import { describe, expect, it } from 'vitest';
import { useConformanceStore } from '../support/conformance-storage.js';

/*
 * The storage contract for objects (versions numbered in the order their
 * digests were first stored) and labels (moved, listed by their bytes).
 */
const store = useConformanceStore();

/** A digest-shaped string, distinct per `c`. */
const digest = (c: string) => c.repeat(43);

function object(project: string, name: string, d: string, value: unknown = d): ObjectPut {
  return { project, name, kind: 'object', digest: digest(d), canonicalValue: JSON.stringify(value) };
}

describe(`storage contract (${store.engine}): objects`, () => {
  it('numbers versions from 1 in the order first stored; a known digest is a no-op answering as before', async () => {
    const project = store.project();
    const first = await store.storage.putObject(object(project, 'prompt', 'b'));
    expect(first).toMatchObject({
      version: 1,
      created: true,
      digest: digest('b'),
      kind: 'object',
      name: 'prompt',
    });
    expect(await store.storage.putObject(object(project, 'prompt', 'a'))).toMatchObject({
      version: 2,
      created: true,
    });
    expect(await store.storage.putObject(object(project, 'prompt', 'b'))).toEqual({
      ...first,
      created: false,
    });
    const versions = await store.storage.listObjectVersions(project, 'prompt');
    expect(versions.map((v) => [v.version, v.digest])).toEqual([
      [1, digest('b')],
      [2, digest('a')],
    ]);
    expect(versions[0]).toEqual({ ...first, created: undefined });
  });

  it('reads a version by digest, number, the latest, and nothing for what is unknown', async () => {
    const project = store.project();
    await store.storage.putObject(object(project, 'cfg', 'x', { n: 1 }));
    await store.storage.putObject(object(project, 'cfg', 'y', { n: 2 }));
    expect(await store.storage.readObject(project, 'cfg', { digest: digest('x') })).toMatchObject({
      version: 1,
      value: { n: 1 },
    });
    expect(await store.storage.readObject(project, 'cfg', { version: 2 })).toMatchObject({ value: { n: 2 } });
    expect(await store.storage.readObject(project, 'cfg', { latest: true })).toMatchObject({ version: 2 });
    expect(await store.storage.readObject(project, 'cfg', { version: 3 })).toBeUndefined();
    expect(await store.storage.readObject(project, 'cfg', { digest: digest('z') })).toBeUndefined();
    expect(await store.storage.readObject(project, 'other', { latest: true })).toBeUndefined();
    expect(await store.storage.readObject(store.project(), 'cfg', { latest: true })).toBeUndefined();
    expect(await store.storage.listObjectVersions(project, 'other')).toEqual([]);
  });

  it('lists object names by their bytes, each with its latest version', async () => {
    const project = store.project();
    const names = ['b', 'a_1', 'aB', 'a.1', 'a-1', 'B', '9z'];
    for (const name of names) await store.storage.putObject(object(project, name, 'q'));
    await store.storage.putObject(object(project, 'b', 'r'));
    const listed = await store.storage.listObjects(project);
    expect(listed.map((o) => o.name)).toEqual(['9z', 'B', 'a-1', 'a.1', 'aB', 'a_1', 'b']);
    expect(listed.at(-1)).toMatchObject({ kind: 'object', latestDigest: digest('r'), versionCount: 2 });
  });
});

describe(`storage contract (${store.engine}): labels`, () => {
  it('points a label at a version by number or digest, moves it, and reads through it', async () => {
    const project = store.project();
    await store.storage.putObject(object(project, 'prompt', 'x', 'one'));
    await store.storage.putObject(object(project, 'prompt', 'y', 'two'));
    expect(await store.storage.setObjectLabel(project, 'prompt', 'prod', { version: 1 })).toMatchObject({
      label: 'prod',
      version: 1,
      digest: digest('x'),
    });
    expect(await store.storage.readObject(project, 'prompt', { label: 'prod' })).toMatchObject({
      value: 'one',
    });
    expect(
      await store.storage.setObjectLabel(project, 'prompt', 'prod', { digest: digest('y') }),
    ).toMatchObject({
      version: 2,
    });
    expect(await store.storage.readObject(project, 'prompt', { label: 'prod' })).toMatchObject({
      value: 'two',
    });
    expect(await store.storage.readObject(project, 'prompt', { label: 'staging' })).toBeUndefined();
  });

  it('refuses a version that does not exist', async () => {
    const project = store.project();
    await store.storage.putObject(object(project, 'prompt', 'x'));
    expect(await store.storage.setObjectLabel(project, 'prompt', 'prod', { version: 2 })).toBeUndefined();
    expect(
      await store.storage.setObjectLabel(project, 'prompt', 'prod', { digest: digest('z') }),
    ).toBeUndefined();
    expect(await store.storage.setObjectLabel(project, 'none', 'prod', { version: 1 })).toBeUndefined();
    expect(await store.storage.listObjectLabels(project, 'prompt')).toEqual([]);
  });

  it('lists the labels of a name by their bytes, each with its version', async () => {
    const project = store.project();
    await store.storage.putObject(object(project, 'prompt', 'x'));
    await store.storage.putObject(object(project, 'prompt', 'y'));
    for (const label of ['prod', 'Beta', 'alpha', 'a.b', 'a_b']) {
      await store.storage.setObjectLabel(project, 'prompt', label, { version: label === 'prod' ? 2 : 1 });
    }
    const labels = await store.storage.listObjectLabels(project, 'prompt');
    expect(labels.map((l) => [l.label, l.version])).toEqual([
      ['Beta', 1],
      ['a.b', 1],
      ['a_b', 1],
      ['alpha', 1],
      ['prod', 2],
    ]);
    expect(labels.every((l) => typeof l.updatedAt === 'number')).toBe(true);
  });
});
