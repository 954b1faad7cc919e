import { describe, expect, it } from 'vitest';
import { sanitize } from './sanitize.js';
import { SNAPSHOT_MAX_DEPTH, snapshot, snapshotTape, snapshotWithStats } from './snapshot.js';
import { MAX_DEPTH_LIMIT } from './value-limits.js';
import { materialize } from './snapshot-tape.js';

type Message = { role: string; content: string; meta?: Record<string, unknown> };

describe('snapshot', () => {
  it('shows the messages array as it was when an agent loop later pushes the reply onto it', () => {
    const messages: Message[] = [{ role: 'user', content: 'hi', meta: { turn: 1 } }];
    const taken = snapshot({ messages });
    messages.push({ role: 'assistant', content: 'hello' });
    (messages[0] as Message).content = 'edited';
    ((messages[0] as Message).meta as Record<string, unknown>).turn = 2;
    expect(taken).toEqual({ messages: [{ role: 'user', content: 'hi', meta: { turn: 1 } }] });
  });

  it('copies Map and Set so later changes do not show', () => {
    const map = new Map([['k', { v: 1 }]]);
    const set = new Set([1]);
    const taken = snapshot({ map, set }) as { map: Map<string, { v: number }>; set: Set<number> };
    map.set('other', { v: 2 });
    (map.get('k') as { v: number }).v = 99;
    set.add(2);
    expect([...taken.map]).toEqual([['k', { v: 1 }]]);
    expect([...taken.set]).toEqual([1]);
  });

  it('keeps class instances, functions, Dates, Errors, typed arrays and Promises by identity', () => {
    class Client {}
    const kept = [new Client(), () => 1, new Date(), new Error('e'), new Uint8Array(2), Promise.resolve()];
    const taken = snapshot({ kept }) as { kept: unknown[] };
    expect(taken.kept).not.toBe(kept);
    for (const [i, value] of taken.kept.entries()) expect(value).toBe(kept[i]);
  });

  it('returns primitives as they are', () => {
    for (const value of [1, 'a', null, undefined, true, 2n]) expect(snapshot(value)).toBe(value);
  });

  it('costs the same number of nodes whatever the string bytes', () => {
    const small = { messages: [{ role: 'user', content: 'x' }], model: 'm' };
    const large = {
      messages: [{ role: 'user', content: 'x'.repeat(10_000_000) }],
      model: 'm'.repeat(80_000),
    };
    const a = snapshotWithStats(small);
    const b = snapshotWithStats(large);
    expect(b.stats.nodes).toBe(a.stats.nodes);
    expect(a.stats.nodes).toBe(6); // root, messages, the message, role, content, model
    // JS cannot observe string identity (=== compares contents); the equal
    // node counts above are what show that no string was walked or copied.
    expect((b.value as typeof large).messages[0]!.content).toHaveLength(10_000_000);
  });

  it('keeps cycles as cycles and copies a shared container at each place it appears', () => {
    const shared: Record<string, unknown> = { s: 1 };
    shared.loop = shared;
    const root: Record<string, unknown> = { a: shared, b: shared };
    root.self = root;
    for (const maxDepth of [100, 401]) {
      const taken = snapshot(root, { maxDepth }) as Record<string, Record<string, unknown>>;
      expect(taken).not.toBe(root);
      expect(taken.self).toBe(taken);
      expect(taken.a).not.toBe(shared);
      expect(taken.a).not.toBe(taken.b);
      expect(taken.a?.loop).toBe(taken.a);
      expect(taken.b?.loop).toBe(taken.b);
      expect(sanitize(taken.a).value).toEqual(sanitize(taken.b).value);
    }
  });

  it('bounds a value whose shared containers would expand exponentially by maxNodes', () => {
    let level: unknown = { leaf: 1 };
    for (let i = 0; i < 40; i++) level = [level, level];
    const { value, stats } = snapshotWithStats(level, { maxNodes: 1_000 });
    expect(stats.nodes).toBe(1_000);
    expect(JSON.stringify(sanitize(value).value)).toContain('"reason":"nodes"');
  });

  it('reads getters once, at the moment, and turns a throwing getter into a marker', () => {
    let value = 1;
    let reads = 0;
    const source = {
      get live() {
        reads++;
        return value;
      },
      get broken(): never {
        throw new Error('no');
      },
      after: 'kept',
    };
    const taken = snapshot(source);
    value = 2;
    expect(reads).toBe(1);
    expect(Object.getOwnPropertyDescriptor(taken, 'live')).toMatchObject({ value: 1 });
    expect(sanitize(taken).value).toEqual({
      live: 1,
      broken: { _weft: 'unreadable', reason: 'getter', error: 'Error: no' },
      after: 'kept',
    });
  });

  it('copies null-prototype objects and keeps __proto__ keys as data', () => {
    const bare = Object.create(null) as Record<string, unknown>;
    bare.a = 1;
    const parsed = JSON.parse('{"__proto__": {"polluted": true}}') as object;
    const taken = snapshot({ bare, parsed }) as { bare: object; parsed: object };
    expect(taken.bare).not.toBe(bare);
    expect({ ...taken.bare }).toEqual({ a: 1 });
    expect(Object.getPrototypeOf(taken.parsed)).toBe(Object.prototype);
    expect(Object.keys(taken.parsed)).toEqual(['__proto__']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('takes a snapshot a getter starts mid-snapshot (a traced call inside a getter) without mixing the two', () => {
    let inner: unknown;
    const source = {
      before: { a: [1, 2] },
      get live() {
        inner = snapshotTape({ nested: ['x', { y: true }] });
        return 'read';
      },
      after: { b: 'z' },
    };
    const outer = snapshotTape(source);
    expect(materialize(outer)).toEqual({ before: { a: [1, 2] }, live: 'read', after: { b: 'z' } });
    expect(materialize(inner)).toEqual({ nested: ['x', { y: true }] });
    // The next snapshot starts clean.
    expect(materialize(snapshotTape([{ c: 3 }]))).toEqual([{ c: 3 }]);
  });

  it('copies only own keys when Object.prototype was given an enumerable member', () => {
    const source = { a: 1, nested: { b: 2 } };
    (Object.prototype as Record<string, unknown>).polluted = 'inherited';
    try {
      const taken = snapshot(source) as Record<string, unknown>;
      expect(Object.keys(taken)).toEqual(['a', 'nested']);
      expect(Object.keys(taken.nested as object)).toEqual(['b']);
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
  });

  it('leaves symbol keys and non-enumerable properties out of copies', () => {
    const source: Record<PropertyKey, unknown> = { a: 1, [Symbol('s')]: 2 };
    Object.defineProperty(source, 'hidden', { value: 3, enumerable: false });
    const taken = snapshot(source) as object;
    expect(Reflect.ownKeys(taken)).toEqual(['a']);
  });

  it('survives depth 10,000 and marks containers past maxDepth', () => {
    const root: Record<string, unknown> = {};
    let node = root;
    for (let i = 0; i < 10_000; i++) node = node.c = {};
    let copied = snapshot(root) as Record<string, unknown>;
    for (let i = 0; i < SNAPSHOT_MAX_DEPTH; i++) copied = copied.c as Record<string, unknown>;
    expect(sanitize(copied.c).value).toEqual({ _weft: 'truncated', reason: 'depth', type: 'Object' });
  });

  it('stops at maxNodes with a visible marker for what it left out', () => {
    const taken = snapshot({ list: Array.from({ length: 100 }, (_, i) => i) }, { maxNodes: 10 });
    expect(sanitize(taken).value).toEqual({
      list: [0, 1, 2, 3, 4, 5, 6, 7, { _weft: 'truncated', reason: 'nodes', omitted: 92 }],
    });
  });

  it('never throws on proxies: revoked ones are kept, live ones are copied through their traps', () => {
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    const live = new Proxy({ a: 1 }, {});
    const throwing = new Proxy(
      { a: 1 },
      {
        get() {
          throw new Error('trap');
        },
      },
    );
    const keysThrow = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('keys');
        },
      },
    );
    const taken = snapshot({ revoked, live, throwing, keysThrow }) as Record<string, unknown>;
    expect(taken.revoked).toBe(revoked);
    expect(taken.live).not.toBe(live);
    expect(taken.live).toEqual({ a: 1 });
    expect(sanitize(taken).value).toEqual({
      revoked: { _weft: 'unreadable', reason: 'value', error: expect.stringContaining('revoked') },
      live: { a: 1 },
      throwing: { a: { _weft: 'unreadable', reason: 'getter', error: 'Error: trap' } },
      keysThrow: { _weft: 'unreadable', reason: 'keys', error: 'Error: keys' },
    });
  });

  it('keeps by identity what `keep` selects, and copies when `keep` throws', () => {
    const published = { name: 'prompt' };
    const other = { x: 1 };
    const keep = (value: object) => {
      if (value === other) throw new Error('keep broke');
      return value === published;
    };
    const taken = snapshot({ published, other }, { keep }) as Record<string, unknown>;
    expect(taken.published).toBe(published);
    expect(taken.other).not.toBe(other);
    expect(taken.other).toEqual(other);
  });

  it('falls back to default limits when given invalid ones instead of throwing', () => {
    const value = { a: [1, 2, 3] };
    expect(snapshot(value, { maxDepth: -1, maxNodes: Number.NaN })).toEqual(value);
  });
});

describe('depth limits', () => {
  it('never walk deeper than MAX_DEPTH_LIMIT, whatever maxDepth asks (the walker recurses)', () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 1_000; i++) {
      deep.c = {};
      deep = deep.c as Record<string, unknown>;
    }
    const { stats } = snapshotWithStats(root, { maxDepth: 10_000, maxNodes: 1_000_000 });
    expect(stats.nodes).toBe(MAX_DEPTH_LIMIT + 2);
  });
});
