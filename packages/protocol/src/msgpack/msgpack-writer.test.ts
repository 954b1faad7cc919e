import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeMsgpack, encodeMsgpack } from './msgpack-codec.js';
import { msgpackArrayHeader, msgpackBinHeader, msgpackStrHeader } from './msgpack-headers.js';
import { readMsgpackHeader, skipMsgpackValue } from './msgpack-layout.js';
import { MsgpackWriter } from './msgpack-writer.js';

/** A writer over a buffer that starts tiny and doubles, so every write crosses a `grow`. */
class GrowingWriter extends MsgpackWriter {
  constructor() {
    const buf = Buffer.alloc(1);
    super(buf, new DataView(buf.buffer, buf.byteOffset, buf.byteLength));
  }

  protected grow(n: number): void {
    const next = Buffer.alloc((this.pos + n) * 2);
    this.buf.copy(next, 0, this.start, this.pos);
    this.pos -= this.start;
    this.start = 0;
    this.buf = next;
    this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
  }

  /** Writes a JSON-like value (well-formed strings). */
  write(v: unknown): void {
    if (v === null) this.nil();
    else if (typeof v === 'boolean') this.boolean(v);
    else if (typeof v === 'number') this.number(v);
    else if (typeof v === 'string') expect(this.string(v, Number.POSITIVE_INFINITY)).toBe(true);
    else if (Array.isArray(v)) {
      this.arrayHeader(v.length);
      for (const item of v) this.write(item);
    } else {
      const at = this.reserveMapHeader();
      const entries = Object.entries(v as Record<string, unknown>);
      for (const [key, member] of entries) {
        this.string(key, Number.POSITIVE_INFINITY);
        this.write(member);
      }
      this.mapHeader(at, entries.length);
    }
  }

  done(): Uint8Array {
    return this.buf.subarray(this.start, this.pos);
  }
}

const wellFormed = (v: unknown): boolean =>
  JSON.stringify(v, (_, x) =>
    typeof x === 'string' && !(x as string & { isWellFormed(): boolean }).isWellFormed() ? undefined : x,
  ) === JSON.stringify(v);

describe('MsgpackWriter', () => {
  it('writes what decodeMsgpack reads back as the value, and skipMsgpackValue spans exactly', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        fc.pre(wellFormed(value));
        const w = new GrowingWriter();
        w.write(value);
        const bytes = w.done();
        expect(decodeMsgpack(bytes)).toEqual(decodeMsgpack(encodeMsgpack(value)));
        expect(skipMsgpackValue(bytes, 0)).toBe(bytes.byteLength);
      }),
      { numRuns: 500 },
    );
  });

  it('writes every integer width and floats as the wire encoder reads them (-0 as 0, like encodeMsgpack)', () => {
    const numbers = [
      0,
      -0,
      1,
      127,
      128,
      255,
      256,
      65535,
      65536,
      2 ** 32 - 1,
      2 ** 32,
      -1,
      -32,
      -33,
      -128,
      -129,
    ];
    for (const n of [...numbers, -32768, -32769, -(2 ** 31), -(2 ** 31) - 1, 1.5, Number.MAX_SAFE_INTEGER]) {
      const w = new GrowingWriter();
      w.number(n);
      expect(decodeMsgpack(w.done())).toBe(decodeMsgpack(encodeMsgpack(n)));
      expect(decodeMsgpack(w.done())).toBe(n === 0 ? 0 : n);
    }
  });

  it('widens a map header for 16 and 65,536 members', () => {
    for (const count of [15, 16, 65_536]) {
      const value = Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
      const w = new GrowingWriter();
      w.write(value);
      expect(decodeMsgpack(w.done())).toEqual(value);
    }
  });

  it('refuses a string over the length or with a lone surrogate, writing nothing', () => {
    const w = new GrowingWriter();
    expect(w.string('abcdef', 5)).toBe(false);
    expect(w.string('a\ud800b', 10)).toBe(false);
    expect(w.string('x'.repeat(40) + '\udc00', 100)).toBe(false);
    expect(w.done().byteLength).toBe(0);
    expect(w.string('héllo wörld', 20)).toBe(true);
    expect(decodeMsgpack(w.done())).toBe('héllo wörld');
  });
});

describe('msgpack headers', () => {
  it('are the smallest headers, as readMsgpackHeader reads them', () => {
    for (const n of [0, 31, 32, 255, 256, 65535, 65536]) {
      const str = readMsgpackHeader(msgpackStrHeader(n), 0);
      expect([str.size, str.headerLength]).toEqual([n, n < 32 ? 1 : n < 256 ? 2 : n < 65536 ? 3 : 5]);
      const bin = readMsgpackHeader(msgpackBinHeader(n), 0);
      expect([bin.size, bin.headerLength]).toEqual([n, n < 256 ? 2 : n < 65536 ? 3 : 5]);
      const array = readMsgpackHeader(msgpackArrayHeader(n), 0);
      expect([array.size, array.headerLength]).toEqual([n, n < 16 ? 1 : n < 65536 ? 3 : 5]);
    }
  });
});
