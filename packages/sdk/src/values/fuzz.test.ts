import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Sanitizer, sanitize } from './sanitize.js';
import { snapshot } from './snapshot.js';
import { expectSameJson, expectWireSafe } from './wire-safe.test-support.js';

// Keys that have broken serializers before: prototype names, redacted names,
// our own marker key, and arbitrary UTF-16 (lone surrogates included).
const key = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toJSON',
    'then',
    'password',
    'Token',
    '_weft',
    'length',
  ),
);

const anything = fc.anything({
  key,
  maxDepth: 4,
  maxKeys: 5,
  stringUnit: 'binary',
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
});

// Built once: a 2 MB string with a lone surrogate exactly where the default
// 1,000,000-unit cut falls, and one made only of surrogate pairs.
const hugeStrings = fc.constantFrom(
  `${'a'.repeat(999_999)}\ud83d\ude00${'b'.repeat(1_000_000)}\udc00`,
  '😀'.repeat(600_000),
  'x'.repeat(3_000_000),
);

class Holder {
  constructor(readonly held: unknown) {}
}
class WithToJSON {
  constructor(
    readonly mode: 'value' | 'throw' | 'self' | 'undefined',
    readonly held: unknown,
  ) {}
  toJSON(): unknown {
    if (this.mode === 'throw') throw new Error('toJSON');
    if (this.mode === 'self') return this;
    return this.mode === 'value' ? this.held : undefined;
  }
}

const traps = ['get', 'ownKeys', 'getPrototypeOf', 'getOwnPropertyDescriptor', 'has', 'none'] as const;

/**
 * fast-check probes every generated value (`cloneMethod in value`), which a
 * revoked proxy or a throwing `has` trap would make throw inside fast-check
 * itself; so the hostile arbitraries hand their values over in a box.
 */
class Box {
  constructor(readonly value: unknown) {}
}
const box = (value: unknown) => new Box(value);
const unbox = (b: Box) => b.value;

const { value: boxedHostile } = fc.letrec((tie) => {
  const value = () => tie('value') as fc.Arbitrary<Box>;
  const container = () => tie('container') as fc.Arbitrary<Box>;
  return {
    value: fc.oneof(
      { depthSize: 'small', maxDepth: 4 },
      anything.map(box),
      container(),
      tie('getter'),
      tie('proxy'),
      tie('revoked'),
      tie('cyclic'),
      tie('instance'),
      tie('error'),
      fc
        .constantFrom(
          Symbol('s'),
          () => 1,
          class Named {},
          Number.NaN,
          -0,
          Number.NEGATIVE_INFINITY,
          /re/g,
          new Date(Number.NaN),
          Promise.resolve(),
          new WeakSet(),
        )
        .map(box),
    ),
    container: fc.oneof(
      fc.array(value(), { maxLength: 4 }).map((items) => box(items.map(unbox))),
      fc
        .dictionary(key, value(), { maxKeys: 4, noNullPrototype: false })
        .map((dict) => box(Object.fromEntries(Object.entries(dict).map(([k, v]) => [k, unbox(v)])))),
      fc
        .array(fc.tuple(value(), value()), { maxLength: 3 })
        .map((pairs) => box(new Map(pairs.map(([k, v]) => [unbox(k), unbox(v)])))),
      fc.array(value(), { maxLength: 3 }).map((items) => box(new Set(items.map(unbox)))),
    ),
    getter: fc.tuple(key, value(), fc.boolean()).map(([name, held, throws]) => {
      const object: Record<string, unknown> = { sibling: 1 };
      Object.defineProperty(object, name, {
        enumerable: true,
        get() {
          if (throws) throw new Error(`getter ${name}`);
          return held.value;
        },
      });
      return box(object);
    }),
    proxy: fc.tuple(container(), fc.constantFrom(...traps)).map(([target, trap]) => {
      const handler =
        trap === 'none'
          ? {}
          : {
              [trap]() {
                throw new Error(`trap ${trap}`);
              },
            };
      return box(new Proxy(target.value as object, handler));
    }),
    revoked: fc
      .constantFrom<() => object>(
        () => ({}),
        () => [],
        () => () => 1,
        () => new Map(),
      )
      .map((make) => {
        const { proxy, revoke } = Proxy.revocable(make(), {});
        revoke();
        return box(proxy);
      }),
    cyclic: fc.tuple(container(), key).map(([boxed, name]) => {
      const target = boxed.value;
      if (target instanceof Map) target.set(name, target);
      else if (target instanceof Set) target.add(target);
      else if (Array.isArray(target)) target.push(target);
      else Object.defineProperty(target, name, { value: target, enumerable: true });
      return box({ wrap: target });
    }),
    instance: fc.oneof(
      value().map((held) => box(new Holder(held.value))),
      fc
        .tuple(fc.constantFrom('value', 'throw', 'self', 'undefined' as const), value())
        .map(([mode, held]) => box(new WithToJSON(mode, held.value))),
    ),
    error: fc.tuple(fc.string({ unit: 'binary' }), value(), value()).map(([message, cause, extra]) => {
      const error = new Error(message, { cause: cause.value }) as Error & { extra?: unknown };
      error.extra = extra.value;
      return box(error);
    }),
  };
});
// Unboxed inside each property, never by fast-check (see Box).
const hostile = boxedHostile as fc.Arbitrary<Box>;

function deepChain(depth: number, shape: 'object' | 'array' | 'map'): unknown {
  let node: unknown = 'bottom';
  for (let i = 0; i < depth; i++) {
    node = shape === 'object' ? { next: node } : shape === 'array' ? [node] : new Map([['next', node]]);
  }
  return node;
}

function checkAll(value: unknown): void {
  const direct = sanitize(value);
  expectWireSafe(direct.value);
  const viaSnapshot = sanitize(snapshot(value));
  expectWireSafe(viaSnapshot.value);
}

describe('fuzz', () => {
  it('turns fc.anything values with every option into wire-safe JSON', () => {
    fc.assert(fc.property(anything, checkAll), { numRuns: 500 });
  });

  it('never throws on getters, proxies, revoked proxies, cycles, instances and errors', () => {
    fc.assert(
      fc.property(hostile, (b) => checkAll(b.value)),
      { numRuns: 500 },
    );
  });

  it('handles huge strings inside hostile values', () => {
    fc.assert(
      fc.property(hugeStrings, hostile, (huge, other) =>
        checkAll({ huge, other: other.value, list: [huge] }),
      ),
      { numRuns: 20 },
    );
  });

  it('handles very deep values of every container kind', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 12_000 }),
        fc.constantFrom('object', 'array', 'map' as const),
        (depth, shape) => checkAll(deepChain(depth, shape)),
      ),
      { numRuns: 30 },
    );
  });

  it('gives the same result in small steps as in one go', () => {
    fc.assert(
      fc.property(hostile, fc.integer({ min: 1, max: 7 }), ({ value }, budget) => {
        const whole = sanitize(value).value;
        const sliced = new Sanitizer(value);
        let steps = 0;
        while (!sliced.step(budget)) steps++;
        expectSameJson(sliced.result, whole);
        expect(steps).toBeLessThanOrEqual(sliced.nodes);
      }),
      { numRuns: 300 },
    );
  });
});
