import { describe, expect, it } from 'vitest';
import { Sanitizer, sanitize } from './sanitize.js';
import { snapshot } from './snapshot.js';
import { expectWireSafe } from './wire-safe.test-support.js';

class Point {
  constructor(
    public x: number,
    public y: number,
  ) {}
}

class Money {
  constructor(private readonly cents: number) {}
  toJSON() {
    return { amount: this.cents / 100, currency: 'EUR' };
  }
}

class Broken {
  readonly visible = 1;
  toJSON(): never {
    throw new RangeError('cannot serialize');
  }
}

class HttpError extends Error {
  readonly status = 503;
}

function selfReferencing() {
  const node: Record<string, unknown> = { name: 'root' };
  node.self = node;
  return node;
}

function throwingGetter() {
  const o: Record<string, unknown> = { ok: 1 };
  Object.defineProperty(o, 'bad', {
    enumerable: true,
    get() {
      throw new Error('getter exploded');
    },
  });
  return o;
}

function revokedProxy(target: object = {}) {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
}

function allTrapsThrow() {
  const traps = [
    'get',
    'set',
    'has',
    'ownKeys',
    'getPrototypeOf',
    'getOwnPropertyDescriptor',
    'defineProperty',
  ];
  const handler = Object.fromEntries(
    traps.map((trap) => [
      trap,
      () => {
        throw new Error(`trap ${trap}`);
      },
    ]),
  );
  return new Proxy({ a: 1 }, handler);
}

function nested(depth: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let node = root;
  for (let i = 0; i < depth; i++) {
    const child: Record<string, unknown> = {};
    node.child = child;
    node = child;
  }
  return root;
}

function errorWithCause() {
  const error = new TypeError('outer', { cause: new Error('inner') }) as TypeError & { code?: string };
  error.code = 'E_OUTER';
  return error;
}

const bigString = 'x'.repeat(10 * 1024 * 1024);
const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
const withSymbolKey = { kept: 1, [Symbol('hidden')]: 2 };
const protoKey = JSON.parse('{"__proto__": {"polluted": true}, "b": 2}') as object;
const expectString = (s: string) => expect.stringMatching(s);

/** value → its documented representation (docs/values.md); `expect.*` matchers where a part varies. */
const table: [string, () => unknown, unknown][] = [
  ['a cycle', selfReferencing, { name: 'root', self: { _weft: 'cycle', path: ['value'] } }],
  ['a bigint', () => 12345678901234567890n, { _weft: 'bigint', value: '12345678901234567890' }],
  ['a symbol', () => Symbol('tag'), { _weft: 'symbol', description: 'tag' }],
  ['a symbol without description', () => Symbol(), { _weft: 'symbol' }],
  ['a named function', () => function greet() {}, { _weft: 'function', name: 'greet' }],
  ['an anonymous arrow', () => [() => 1][0], { _weft: 'function', name: '' }],
  ['a class', () => Point, { _weft: 'function', name: 'Point' }],
  ['a class instance', () => new Point(1, 2), { _weft: 'instance', class: 'Point', value: { x: 1, y: 2 } }],
  ['an instance with toJSON', () => new Money(1250), { amount: 12.5, currency: 'EUR' }],
  ['a URL (toJSON)', () => new URL('https://example.com/a?b=1'), 'https://example.com/a?b=1'],
  [
    'an instance whose toJSON throws',
    () => new Broken(),
    { _weft: 'unreadable', reason: 'toJSON', error: 'RangeError: cannot serialize' },
  ],
  [
    'a throwing getter',
    throwingGetter,
    { ok: 1, bad: { _weft: 'unreadable', reason: 'getter', error: 'Error: getter exploded' } },
  ],
  [
    'a Map',
    () =>
      new Map<unknown, unknown>([
        ['a', 1],
        [{ k: 1 }, [2]],
      ]),
    {
      _weft: 'map',
      size: 2,
      entries: [
        ['a', 1],
        [{ k: 1 }, [2]],
      ],
    },
  ],
  ['a Set', () => new Set([1, 'two']), { _weft: 'set', size: 2, values: [1, 'two'] }],
  ['a Date', () => new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)), '2024-01-02T03:04:05.006Z'],
  ['an invalid Date', () => new Date(Number.NaN), { _weft: 'invalid-date' }],
  [
    'an Error with a cause and extra props',
    errorWithCause,
    {
      _weft: 'error',
      name: 'TypeError',
      message: 'outer',
      stack: expectString('^TypeError: outer\n'),
      cause: { _weft: 'error', name: 'Error', message: 'inner', stack: expectString('^Error: inner\n') },
      props: { code: 'E_OUTER' },
    },
  ],
  [
    // Its class name, not the "Error" it inherits: what the caller would `instanceof` (OpenAI's RateLimitError).
    'an Error subclass',
    () => new HttpError('unavailable'),
    {
      _weft: 'error',
      name: 'HttpError',
      message: 'unavailable',
      stack: expect.any(String),
      props: { status: 503 },
    },
  ],
  [
    'an AggregateError',
    () => new AggregateError([new Error('a')], 'many'),
    {
      _weft: 'error',
      name: 'AggregateError',
      message: 'many',
      stack: expect.any(String),
      errors: [{ _weft: 'error', name: 'Error', message: 'a', stack: expect.any(String) }],
    },
  ],
  [
    'a Buffer',
    () => Buffer.from('hello'),
    { _weft: 'binary', type: 'Buffer', byteLength: 5, base64: 'aGVsbG8=' },
  ],
  [
    'a Float64Array',
    () => new Float64Array([1]),
    { _weft: 'binary', type: 'Float64Array', byteLength: 8, base64: 'AAAAAAAA8D8=' },
  ],
  [
    'a Uint8Array view into a larger buffer',
    () => new Uint8Array([9, 1, 2, 9]).subarray(1, 3),
    { _weft: 'binary', type: 'Uint8Array', byteLength: 2, base64: 'AQI=' },
  ],
  [
    'an ArrayBuffer',
    () => new Uint8Array([255]).buffer,
    { _weft: 'binary', type: 'ArrayBuffer', byteLength: 1, base64: '/w==' },
  ],
  [
    'a DataView',
    () => new DataView(new Uint8Array([1, 2, 3]).buffer, 1),
    { _weft: 'binary', type: 'DataView', byteLength: 2, base64: 'AgM=' },
  ],
  [
    'a large Buffer',
    () => Buffer.alloc(5_000, 1),
    {
      _weft: 'binary',
      type: 'Buffer',
      byteLength: 5_000,
      base64: Buffer.alloc(1_024, 1).toString('base64'),
      truncated: true,
    },
  ],
  ['a Proxy of a plain object', () => new Proxy({ a: 1 }, {}), { a: 1 }],
  [
    'a Proxy whose get trap throws',
    () =>
      new Proxy(
        { a: 1 },
        {
          get() {
            throw new Error('trap');
          },
        },
      ),
    { a: { _weft: 'unreadable', reason: 'getter', error: 'Error: trap' } },
  ],
  [
    'a Proxy whose every trap throws',
    allTrapsThrow,
    { _weft: 'unreadable', reason: 'value', error: 'Error: trap getPrototypeOf' },
  ],
  [
    'a revoked Proxy',
    () => revokedProxy(),
    { _weft: 'unreadable', reason: 'value', error: expectString('revoked') },
  ],
  [
    'a revoked Proxy of an array',
    () => revokedProxy([]),
    { _weft: 'unreadable', reason: 'value', error: expectString('revoked') },
  ],
  ['a revoked Proxy of a function', () => revokedProxy(() => 1), { _weft: 'function', name: '' }],
  [
    'a 10 MB string',
    () => bigString,
    { _weft: 'truncated', reason: 'string', length: 10 * 1024 * 1024, value: 'x'.repeat(1_000_000) },
  ],
  ['NaN', () => Number.NaN, { _weft: 'number', value: 'NaN' }],
  ['Infinity', () => Number.POSITIVE_INFINITY, { _weft: 'number', value: 'Infinity' }],
  ['-Infinity', () => Number.NEGATIVE_INFINITY, { _weft: 'number', value: '-Infinity' }],
  ['-0', () => -0, 0],
  ['undefined members', () => ({ a: undefined, b: 1 }), { b: 1 }],
  ['undefined in an array', () => [undefined, 1], [null, 1]],
  // biome-ignore lint/suspicious/noSparseArray: a hole is the case under test
  ['a sparse array', () => [1, , 3], [1, null, 3]],
  ['a lone high surrogate', () => 'a\ud800b', 'a\ufffdb'],
  ['a lone low surrogate in a key', () => ({ 'k\udc00': 1 }), { 'k\ufffd': 1 }],
  ['a surrogate pair', () => 'emoji 😀', 'emoji 😀'],
  ['a null-prototype object', () => nullProto, { a: 1 }],
  ['symbol keys', () => withSymbolKey, { kept: 1 }],
  ['a boxed string', () => new String('boxed'), 'boxed'],
  ['a boxed bigint', () => Object(5n), { _weft: 'bigint', value: '5' }],
  ['a RegExp', () => /a+b/gi, { _weft: 'regexp', value: '/a+b/gi' }],
  ['a Promise', () => Promise.resolve(1), { _weft: 'instance', class: 'Promise', value: {} }],
  ['a WeakMap', () => new WeakMap(), { _weft: 'instance', class: 'WeakMap', value: {} }],
  ['a __proto__ key', () => protoKey, JSON.parse('{"__proto__": {"polluted": true}, "b": 2}')],
];

describe('value safety', () => {
  it.each(table)('represents %s as documented, keeping its siblings intact', (_name, make, expected) => {
    const errors: unknown[] = [];
    const { value } = sanitize(
      { before: 'kept', value: make(), after: [1, { also: 'kept' }] },
      { onError: (e) => errors.push(e) },
    );
    expect(value).toEqual({ before: 'kept', value: expected, after: [1, { also: 'kept' }] });
    expectWireSafe(value);
  });

  it.each(table)('represents %s the same way after a snapshot', (_name, make, expected) => {
    const { value } = sanitize(snapshot({ value: make() }));
    expect(value).toEqual({ value: expected });
  });

  it('keeps a __proto__ key as data and pollutes no prototype', () => {
    const { value } = sanitize(JSON.parse('{"a": {"__proto__": {"isAdmin": true}}}'));
    const inner = (value as { a: object }).a;
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
    expect(Object.keys(inner)).toEqual(['__proto__']);
    expect((inner as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    expect(({} as { isAdmin?: unknown }).isAdmin).toBeUndefined();
  });

  it('visits the same number of nodes whatever the string bytes', () => {
    const message = (content: string) => ({ messages: [{ role: 'user', content }], model: 'm' });
    const small = new Sanitizer(message('x'));
    const large = new Sanitizer(message('x'.repeat(80 * 1024)));
    small.step(Number.POSITIVE_INFINITY);
    large.step(Number.POSITIVE_INFINITY);
    expect(large.nodes).toBe(small.nodes);
    expect(small.nodes).toBe(6);
  });

  it('survives a Proxy of an array whose length is not a count', () => {
    for (const length of [Number.POSITIVE_INFINITY, Number.NaN, 'many', -1, 2 ** 60]) {
      const liar = new Proxy([1, 2], {
        get: (target, key) => (key === 'length' ? length : Reflect.get(target, key)),
      });
      const direct = sanitize({ liar }, { maxArrayLength: 3 }).value;
      expectWireSafe(direct);
      expectWireSafe(sanitize(snapshot({ liar }, { maxNodes: 10 })).value);
    }
    expect(
      sanitize(new Proxy([1, 2], { get: (t, k) => (k === 'length' ? 'x' : Reflect.get(t, k)) })).value,
    ).toEqual([]);
  });

  it('keeps class names well-formed and short', () => {
    class Odd {}
    Object.defineProperty(Odd, 'name', { value: `\ud800${'n'.repeat(500)}` });
    const { value } = sanitize({ odd: new Odd() }, { maxDepth: 1 });
    expect(value).toEqual({ odd: { _weft: 'instance', class: `\ufffd${'n'.repeat(199)}`, value: {} } });
    expectWireSafe(value);
    expectWireSafe(sanitize({ a: { odd: new Odd() } }, { maxDepth: 1 }).value);
  });

  it('gives top-level undefined as null', () => {
    expect(sanitize(undefined).value).toBeNull();
  });

  it('walks depth 10,000 without overflowing and marks where it stopped', () => {
    const { value } = sanitize(nested(10_000), { maxDepth: 50 });
    let node = value as Record<string, unknown>;
    for (let i = 0; i < 50; i++) node = node.child as Record<string, unknown>;
    expect(node.child).toEqual({ _weft: 'truncated', reason: 'depth', type: 'Object' });
    expectWireSafe(value);
  });

  it('cuts arrays longer than maxArrayLength with a marker giving the count left out', () => {
    const { value } = sanitize(
      Array.from({ length: 25 }, (_, i) => i),
      { maxArrayLength: 10 },
    );
    expect(value).toEqual([
      0,
      1,
      2,
      3,
      4,
      5,
      6,
      7,
      8,
      9,
      { _weft: 'truncated', reason: 'length', omitted: 15 },
    ]);
  });

  it('cuts objects with too many keys under a _weft_truncated member', () => {
    const wide = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`k${i}`, i]));
    const { value } = sanitize(wide, { maxArrayLength: 3 });
    expect(value).toEqual({
      k0: 0,
      k1: 1,
      k2: 2,
      _weft_truncated: { _weft: 'truncated', reason: 'length', omitted: 2 },
    });
  });

  it('cuts Maps and Sets past maxArrayLength and keeps their size', () => {
    const { value } = sanitize(new Set([1, 2, 3, 4]), { maxArrayLength: 2 });
    expect(value).toEqual({
      _weft: 'set',
      size: 4,
      values: [1, 2, { _weft: 'truncated', reason: 'length', omitted: 2 }],
    });
  });

  it('stops at maxNodes, closing every open container with one marker', () => {
    const value = { a: [1, 2, 3, 4, 5], b: { c: 1, d: 2 }, e: 'x' };
    const { value: result } = sanitize(value, { maxNodes: 4 });
    expect(result).toEqual({
      a: [1, 2, { _weft: 'truncated', reason: 'nodes', omitted: 3 }],
      _weft_truncated: { _weft: 'truncated', reason: 'nodes', omitted: 2 },
    });
    expectWireSafe(result);
  });

  it('bounds an exponential DAG of shared references by maxNodes', () => {
    let node: unknown = 'leaf';
    for (let i = 0; i < 60; i++) node = [node, node];
    const s = sanitize(node, { maxNodes: 1_000 });
    expectWireSafe(s.value);
    expect(JSON.stringify(s.value).length).toBeLessThan(100_000);
  });

  it('copies repeated references that are not cycles and calls each getter once', () => {
    let reads = 0;
    const shared = {
      get counted() {
        reads++;
        return reads;
      },
    };
    const { value } = sanitize({ a: shared, b: [shared], c: { d: shared } });
    expect(value).toEqual({ a: { counted: 1 }, b: [{ counted: 1 }], c: { d: { counted: 1 } } });
    expect(reads).toBe(1);
  });

  it('names the path a deep cycle points back to', () => {
    const root: Record<string, unknown> = { list: [{ name: 'a' }] };
    (root.list as Record<string, unknown>[])[0]!.up = root.list;
    const { value } = sanitize(root);
    expect(value).toEqual({ list: [{ name: 'a', up: { _weft: 'cycle', path: ['list'] } }] });
  });

  it('names cycle paths through Map, instance and error markers', () => {
    const map = new Map<string, unknown>();
    const point = new Point(1, 2) as Point & { map?: unknown };
    point.map = map;
    map.set('p', point);
    const { value } = sanitize({ map });
    expect(value).toEqual({
      map: {
        _weft: 'map',
        size: 1,
        entries: [
          [
            'p',
            {
              _weft: 'instance',
              class: 'Point',
              value: { x: 1, y: 2, map: { _weft: 'cycle', path: ['map'] } },
            },
          ],
        ],
      },
    });
    const error = new Error('loop') as Error & { cause?: unknown };
    error.cause = error;
    const { value: errorValue } = sanitize([error]);
    expect((errorValue as Record<string, unknown>[])[0]!.cause).toEqual({ _weft: 'cycle', path: [0] });
  });

  it('reports caught errors through onError with their path, never throwing them', () => {
    const seen: [unknown, readonly (string | number)[]][] = [];
    sanitize({ list: [throwingGetter()] }, { onError: (error, path) => seen.push([error, path]) });
    expect(seen).toHaveLength(1);
    expect(String(seen[0]![0])).toBe('Error: getter exploded');
    expect(seen[0]![1]).toEqual(['list', 0, 'bad']);
  });

  it('survives an onError that throws and a thrown value that is itself hostile', () => {
    const hostile = revokedProxy();
    const o = {};
    Object.defineProperty(o, 'x', {
      enumerable: true,
      get() {
        throw hostile;
      },
    });
    const { value } = sanitize(o, {
      onError: () => {
        throw new Error('onError broke');
      },
    });
    expect(value).toEqual({ x: { _weft: 'unreadable', reason: 'getter', error: 'thrown object' } });
  });

  it('refuses invalid options with WEFT_INVALID_OPTIONS naming the option', () => {
    expect(() => sanitize(1, { maxDepth: 0 })).toThrow(
      expect.objectContaining({ code: 'WEFT_INVALID_OPTIONS' }),
    );
    expect(() => sanitize(1, { maxDepth: 401 })).toThrow(/maxDepth/);
    expect(() => sanitize(1, { maxStringLength: 1.5 })).toThrow(/maxStringLength.*1\.5/);
    expect(() => sanitize(1, { onObject: 'no' as never })).toThrow(/onObject/);
  });
});
