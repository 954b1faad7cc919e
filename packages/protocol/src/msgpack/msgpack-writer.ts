// `isWellFormed` is ES2024 (Node 20 has it); the repo's lib is ES2023.
type Es2024String = string & { isWellFormed(): boolean };

/** Node's Buffer method behind `buf.write(s, offset, 'utf8')`, without its argument juggling (msgpackr calls it too). */
type Utf8Writer = Buffer & { utf8Write(s: string, offset: number, maxBytes: number): number };

/**
 * The msgpack wire format written into a growable buffer, a value at a
 * time: headers, integers and floats, strings, booleans, nil. The subclass
 * owns the memory ({@link MsgpackWriter.grow}) and decides what to write;
 * this class only knows the format. Output decodes with `decodeMsgpack` to
 * what `encodeMsgpack` makes of the same value: integers in the smallest
 * form up to 32 bits and float64 beyond, strings with the smallest header.
 *
 * Built for the SDK's hottest path (its one-pass encoder): methods are
 * small and monomorphic, positions are plain fields, and nothing is
 * allocated per value. Keep one subclass per process on a hot path, so the
 * field accesses here stay monomorphic.
 *
 * Node only (it writes UTF-8 through `Buffer`); the browser never encodes.
 */
export abstract class MsgpackWriter {
  buf: Buffer;
  view: DataView;
  /** Where the message being written starts, and the next free byte. */
  start = 0;
  pos = 0;

  constructor(buf: Buffer, view: DataView) {
    this.buf = buf;
    this.view = view;
  }

  /**
   * Makes room for `n` more bytes after `pos` when the buffer lacks it: moves
   * the message written so far (`start…pos`) to a larger buffer and sets
   * `buf`, `view`, `start` and `pos` accordingly.
   */
  protected abstract grow(n: number): void;

  /** Makes room for `n` more bytes. */
  ensure(n: number): void {
    if (this.pos + n > this.buf.length) this.grow(n);
  }

  nil(): void {
    this.ensure(1);
    this.buf[this.pos++] = 0xc0;
  }

  boolean(v: boolean): void {
    this.ensure(1);
    this.buf[this.pos++] = v ? 0xc3 : 0xc2;
  }

  /**
   * Reserves one byte for a map header whose member count is known only
   * after the members are written; returns its offset relative to `start`
   * (a buffer change moves the message). Finish with {@link mapHeader}.
   */
  reserveMapHeader(): number {
    const at = this.pos - this.start;
    this.ensure(1);
    this.pos++;
    return at;
  }

  /** Writes the header of the map of `count` members whose byte was reserved at `at`, widening it for 16 or more. */
  mapHeader(at: number, count: number): void {
    if (count < 16) {
      this.buf[this.start + at] = 0x80 | count;
      return;
    }
    const extra = count < 0x10000 ? 2 : 4;
    this.ensure(extra);
    const head = this.start + at;
    this.buf.copyWithin(head + 1 + extra, head + 1, this.pos);
    this.pos += extra;
    if (extra === 2) {
      this.buf[head] = 0xde;
      this.view.setUint16(head + 1, count);
    } else {
      this.buf[head] = 0xdf;
      this.view.setUint32(head + 1, count);
    }
  }

  arrayHeader(n: number): void {
    this.ensure(5);
    if (n < 16) this.buf[this.pos++] = 0x90 | n;
    else if (n < 0x10000) {
      this.buf[this.pos] = 0xdc;
      this.view.setUint16(this.pos + 1, n);
      this.pos += 3;
    } else {
      this.buf[this.pos] = 0xdd;
      this.view.setUint32(this.pos + 1, n);
      this.pos += 5;
    }
  }

  /**
   * Writes `s` with the smallest str header, when it has at most `maxLength`
   * code units and is well-formed (a msgpack str is UTF-8, which a lone
   * surrogate has no encoding in); otherwise writes nothing and returns false.
   */
  string(s: string, maxLength: number): boolean {
    const n = s.length;
    if (n > maxLength) return false;
    if (n < 32) {
      // Short strings (keys, roles, ids) are mostly ASCII: copy the code units.
      this.ensure(n * 3 + 2);
      const buf = this.buf;
      let p = this.pos + 1;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        buf[p++] = c;
      }
      if (i === n) {
        buf[this.pos] = 0xa0 | n;
        this.pos = p;
        return true;
      }
    }
    if (!(s as Es2024String).isWellFormed()) return false;
    this.utf8String(s);
    return true;
  }

  /** Writes `s` as UTF-8 with the smallest str header; `s` must be well-formed (see {@link string}). */
  utf8String(s: string): void {
    // Room for the worst case (3 bytes per code unit) when the buffer has it;
    // otherwise the exact size, so a long string does not force a needlessly
    // large buffer.
    let max = s.length * 3;
    if (this.pos + max + 5 > this.buf.length) max = Buffer.byteLength(s, 'utf8');
    const head = max < 0x100 ? 2 : max < 0x10000 ? 3 : 5;
    this.ensure(head + max);
    const bytes = (this.buf as Utf8Writer).utf8Write(s, this.pos + head, max);
    if (head === 2) {
      this.buf[this.pos] = 0xd9;
      this.buf[this.pos + 1] = bytes;
    } else if (head === 3) {
      this.buf[this.pos] = 0xda;
      this.view.setUint16(this.pos + 1, bytes);
    } else {
      this.buf[this.pos] = 0xdb;
      this.view.setUint32(this.pos + 1, bytes);
    }
    this.pos += head + bytes;
  }

  /** Writes a number: an integer in the smallest int form up to 32 bits (-0 as 0), anything else as float64. */
  number(v: number): void {
    this.ensure(9);
    const buf = this.buf;
    // -0 is written as 0, as `encodeMsgpack` writes it.
    if (Number.isInteger(v)) {
      if (v >= 0) {
        if (v < 0x80) {
          buf[this.pos++] = v;
          return;
        }
        if (v < 0x100) {
          buf[this.pos] = 0xcc;
          buf[this.pos + 1] = v;
          this.pos += 2;
          return;
        }
        if (v < 0x10000) {
          buf[this.pos] = 0xcd;
          this.view.setUint16(this.pos + 1, v);
          this.pos += 3;
          return;
        }
        if (v < 0x100000000) {
          buf[this.pos] = 0xce;
          this.view.setUint32(this.pos + 1, v);
          this.pos += 5;
          return;
        }
      } else if (v >= -0x20) {
        buf[this.pos++] = v & 0xff;
        return;
      } else if (v >= -0x80) {
        buf[this.pos] = 0xd0;
        this.view.setInt8(this.pos + 1, v);
        this.pos += 2;
        return;
      } else if (v >= -0x8000) {
        buf[this.pos] = 0xd1;
        this.view.setInt16(this.pos + 1, v);
        this.pos += 3;
        return;
      } else if (v >= -0x80000000) {
        buf[this.pos] = 0xd2;
        this.view.setInt32(this.pos + 1, v);
        this.pos += 5;
        return;
      }
    }
    buf[this.pos] = 0xcb;
    this.view.setFloat64(this.pos + 1, v);
    this.pos += 9;
  }

  /** Copies already-encoded bytes (a stand-in, a value encoded elsewhere). */
  bytes(b: Uint8Array): void {
    this.ensure(b.byteLength);
    this.buf.set(b, this.pos);
    this.pos += b.byteLength;
  }
}
