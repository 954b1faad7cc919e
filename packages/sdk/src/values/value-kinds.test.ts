import { canonicalJson, decodeMsgpack, encodeMsgpack } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { encodeIfSafe, releaseEncoded } from './safe-encoder.js';
import { sanitize } from './sanitize.js';
import { snapshot, snapshotTape } from './snapshot.js';
import { materialize } from './snapshot-tape.js';
import { isCopiedKind, ObjectKind, objectKind } from './value-kinds.js';

class Point {
  constructor(
    public x: number,
    public y: number,
  ) {}
}

class Registry extends Map<string, string> {}

const revoked = Proxy.revocable({}, {});
revoked.revoke();
const revokedFunction = Proxy.revocable(() => 1, {});
revokedFunction.revoke();
const cyclic: Record<string, unknown> = { name: 'root' };
cyclic.self = cyclic;
const fn = Object.setPrototypeOf(function named() {}, null) as object;

/** One sample of each kind, with the kind every walker must see. */
const objects: [string, object, ObjectKind][] = [
  ['array', [1, 'two', null], ObjectKind.Array],
  ['plain object', { a: 1, b: 'x' }, ObjectKind.Object],
  ['null-prototype object', Object.assign(Object.create(null), { a: 1 }) as object, ObjectKind.Object],
  ['object with a cycle', cyclic, ObjectKind.Object],
  ['proxy of an array', new Proxy([1, 2], {}), ObjectKind.Array],
  [
    'Map',
    new Map<unknown, unknown>([
      ['a', 1],
      [{ k: 1 }, [2]],
    ]),
    ObjectKind.Map,
  ],
  ['Set', new Set([1, 'two']), ObjectKind.Set],
  ['Map subclass', new Registry([['k', 'v']]), ObjectKind.Map],
  ['Buffer', Buffer.from('hello'), ObjectKind.Binary],
  ['Uint8Array', Uint8Array.of(1, 2, 3), ObjectKind.Binary],
  ['DataView', new DataView(new ArrayBuffer(4)), ObjectKind.Binary],
  ['ArrayBuffer', new ArrayBuffer(3), ObjectKind.Binary],
  ['function', function greet() {}, ObjectKind.Function],
  ['function with a null prototype', fn, ObjectKind.Function],
  ['class', Point, ObjectKind.Function],
  ['Date', new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)), ObjectKind.Date],
  ['invalid Date', new Date(Number.NaN), ObjectKind.Date],
  ['RegExp', /a+b/gi, ObjectKind.RegExp],
  ['boxed string', Object('abc') as object, ObjectKind.Boxed],
  ['boxed bigint', Object(12n) as object, ObjectKind.Boxed],
  ['Error', new TypeError('bad'), ObjectKind.Error],
  ['class instance', new Point(1, 2), ObjectKind.Instance],
  ['instance with toJSON', new URL('http://127.0.0.1/x'), ObjectKind.Instance],
  ['Promise', Promise.resolve(1), ObjectKind.Instance],
  ['WeakMap', new WeakMap(), ObjectKind.Instance],
  ['proxy of an instance', new Proxy(new Point(3, 4), {}), ObjectKind.Instance],
  ['revoked proxy of a function', revokedFunction.proxy, ObjectKind.Function],
];

const primitives: [string, unknown][] = [
  ['string', 'text'],
  ['lone surrogate', 'a\ud800b'],
  ['integer', 42],
  ['float', 1.5],
  ['-0', -0],
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['boolean', true],
  ['null', null],
  ['bigint', 12345678901234567890n],
  ['symbol', Symbol('tag')],
];

/** What a call record holding `value` becomes on the wire by the pool's path: snapshot, then the safe encoder, else the Sanitizer. */
function throughSnapshotAndEncoder(value: unknown): unknown {
  const record = { output: snapshotTape(value) };
  const bytes = encodeIfSafe(record);
  if (bytes !== undefined) {
    const decoded = decodeMsgpack(bytes);
    releaseEncoded(bytes);
    return decoded;
  }
  const walked = { output: materialize(record.output) };
  return decodeMsgpack(encodeMsgpack(sanitize(walked).value));
}

/** The same record walked by the Sanitizer from the value itself. */
function throughSanitizer(value: unknown): unknown {
  return decodeMsgpack(encodeMsgpack(sanitize({ output: value }).value));
}

describe('value kinds', () => {
  it.each(objects)('classifies a %s', (_, value, kind) => {
    expect(objectKind(value)).toBe(kind);
  });

  it('lets a revoked proxy of an object throw, for each walker to mark it unreadable', () => {
    expect(() => objectKind(revoked.proxy)).toThrow(TypeError);
    expect(sanitize(revoked.proxy).value).toMatchObject({ _weft: 'unreadable', reason: 'value' });
    expect(snapshot(revoked.proxy)).toBe(revoked.proxy);
  });

  it.each(objects)('the snapshot copies a %s exactly when its kind is a copied one', (_, value, kind) => {
    expect(snapshot(value) !== value).toBe(isCopiedKind(kind));
  });

  it.each(objects)(
    'the safe encoder writes a %s itself only when it is a plain container',
    (_, value, kind) => {
      const bytes = encodeIfSafe(snapshotTape(value));
      if (bytes !== undefined) releaseEncoded(bytes);
      const plain = kind === ObjectKind.Array || kind === ObjectKind.Object;
      // A cycle is expanded up to the limits, so the encoder refuses it too.
      expect(bytes !== undefined).toBe(plain && value !== cyclic);
    },
  );

  it.each([...objects.map(([name, value]): [string, unknown] => [name, value]), ...primitives])(
    'gives a %s the same safe form through snapshot and encoder as through the Sanitizer',
    (_, value) => {
      expect(canonicalJson(throughSnapshotAndEncoder(value))).toBe(canonicalJson(throughSanitizer(value)));
    },
  );

  it('gives each odd value its documented safe form', () => {
    const forms = sanitize({
      map: new Map([['a', 1]]),
      set: new Set([1]),
      date: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)),
      regexp: /a+b/gi,
      boxed: Object('abc'),
      fn: function hello() {},
      instance: new Point(1, 2),
      url: new URL('http://127.0.0.1/x'),
      promise: Promise.resolve(1),
      bytes: Buffer.from('hello'),
      big: 5n,
      nan: Number.NaN,
      negativeZero: -0,
    }).value;
    expect(forms).toEqual({
      map: { _weft: 'map', size: 1, entries: [['a', 1]] },
      set: { _weft: 'set', size: 1, values: [1] },
      date: '2024-01-02T03:04:05.006Z',
      regexp: { _weft: 'regexp', value: '/a+b/gi' },
      boxed: 'abc',
      fn: { _weft: 'function', name: 'hello' },
      instance: { _weft: 'instance', class: 'Point', value: { x: 1, y: 2 } },
      url: 'http://127.0.0.1/x',
      promise: { _weft: 'instance', class: 'Promise', value: {} },
      bytes: { _weft: 'binary', type: 'Buffer', byteLength: 5, base64: 'aGVsbG8=' },
      big: { _weft: 'bigint', value: '5' },
      nan: { _weft: 'number', value: 'NaN' },
      negativeZero: 0,
    });
  });
});
