import type { OtelAttributes, OtelAttributeValue, OtelEvent, OtelLink, OtelSpan } from '@weft/protocol';
import { setOwnKey } from '@weft/protocol';
import { InvalidRequestError, TooManyValuesError } from '../errors/index.js';
import { MAX_VALUE_DEPTH, TOO_DEEP } from './any-value.js';
import { KIND_BY_NUMBER, type OtlpResourceSpans } from './otlp-spans.js';

/*
 * OTLP protobuf straight to neutral spans: the same result as
 * `spansOfOtlp(decodeTraceRequest(bytes))` (otlp-wire-spans.test.ts checks
 * both on the same bytes), read from the wire format in one pass, without
 * protobufjs' message objects in between (one object per message, a `Long`
 * per 64-bit field, prototype defaults) that `spansOfOtlp` then reads again.
 * Field numbers are those of the vendored .proto files (otlp-descriptor.ts).
 * As protobufjs does: a repeated field appends, a scalar given twice keeps
 * the last, an AnyValue's last member wins (the oneof), unknown fields are
 * skipped, and a message nested deeper than {@link RECURSION_LIMIT} is
 * refused. Fields are counted as they are read: past `maxNodes` the request
 * is refused (413) before more is built, which bounds what a body of
 * millions of two-byte values (a node bomb) can make, with no second pass
 * over the bytes to count them first.
 */

/** protobufjs' `Reader.recursionLimit`: nested messages beyond it refuse the request. */
const RECURSION_LIMIT = 100;
const MAX_DEPTH = 'max depth exceeded';
/** Thrown by the reader past its field budget (caught and answered with 413). */
const TOO_MANY_NODES = new Error('too many fields');

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LENGTH = 2;
const WIRE_FIXED32 = 5;

/**
 * Reads the OTLP `ExportTraceServiceRequest` in `bytes` as neutral spans
 * grouped by resource; 400 when it is not one, 413 (`WEFT_TOO_MANY_VALUES`)
 * when it holds more than `maxNodes` fields.
 */
export function spansOfOtlpProtobuf(
  bytes: Uint8Array,
  maxNodes = Number.POSITIVE_INFINITY,
): OtlpResourceSpans[] {
  try {
    const reader = new WireReader(bytes, maxNodes);
    const out: OtlpResourceSpans[] = [];
    reader.fields(bytes.byteLength, 0, (field, wire, end) => {
      if (field === 1 && wire === WIRE_LENGTH) out.push(resourceSpansOf(reader, end, 1));
      else reader.skip(wire);
    });
    return out;
  } catch (error) {
    if (error === TOO_MANY_NODES) throw new TooManyValuesError(maxNodes);
    const message = String((error as Error)?.message ?? error);
    // The same words as `decodeTraceRequest` (otlp-codec.ts) for the same bytes.
    throw notARequest(
      message === MAX_DEPTH ? 'nested too deeply to decode; flatten deeply nested attribute values' : message,
    );
  }
}

function resourceSpansOf(r: WireReader, end: number, depth: number): OtlpResourceSpans {
  const attributes: OtelAttributes = {};
  const spans: OtelSpan[] = [];
  r.fields(end, depth, (field, wire, fieldEnd) => {
    if (field === 1 && wire === WIRE_LENGTH) {
      // Resource: attributes (1); a second resource field adds to the first, as protobufjs merges it.
      r.fields(fieldEnd, depth + 1, (f, w, e) => {
        if (f === 1 && w === WIRE_LENGTH) keyValueInto(r, e, depth + 2, 0, attributes);
        else r.skip(w);
      });
    } else if (field === 2 && wire === WIRE_LENGTH) scopeSpansInto(r, fieldEnd, depth + 1, spans);
    else r.skip(wire);
  });
  return { resource: { attributes }, spans, malformed: 0 };
}

function scopeSpansInto(r: WireReader, end: number, depth: number, spans: OtelSpan[]): void {
  let scopeName = '';
  let scopeVersion = '';
  const first = spans.length;
  r.fields(end, depth, (field, wire, fieldEnd) => {
    if (field === 1 && wire === WIRE_LENGTH) {
      r.fields(fieldEnd, depth + 1, (f, w, e) => {
        if (f === 1 && w === WIRE_LENGTH) scopeName = r.string(e);
        else if (f === 2 && w === WIRE_LENGTH) scopeVersion = r.string(e);
        else r.skip(w);
      });
    } else if (field === 2 && wire === WIRE_LENGTH) spans.push(spanOf(r, fieldEnd, depth + 1));
    else r.skip(wire);
  });
  // The scope may come after the spans on the wire; it applies to every span of the ScopeSpans.
  if (scopeName === '') return;
  // Protobuf cannot tell an empty version from an absent one: an empty version is no version.
  const version = scopeVersion === '' ? undefined : scopeVersion;
  for (let i = first; i < spans.length; i++) (spans[i] as OtelSpan).scope = { name: scopeName, version };
}

function spanOf(r: WireReader, end: number, depth: number): OtelSpan {
  let traceId = '';
  let spanId = '';
  let parentSpanId = '';
  let name = '';
  let kind = 0;
  let start = '0';
  let endTime = '0';
  const attributes: OtelAttributes = {};
  const events: OtelEvent[] = [];
  const links: OtelLink[] = [];
  let status: OtelSpan['status'];
  r.fields(end, depth, (field, wire, fieldEnd) => {
    if (wire === WIRE_LENGTH) {
      if (field === 1) traceId = r.hex(fieldEnd);
      else if (field === 2) spanId = r.hex(fieldEnd);
      else if (field === 4) parentSpanId = r.hex(fieldEnd);
      else if (field === 5) name = r.string(fieldEnd);
      else if (field === 9) keyValueInto(r, fieldEnd, depth + 1, 0, attributes);
      else if (field === 11) events.push(eventOf(r, fieldEnd, depth + 1));
      else if (field === 13) links.push(linkOf(r, fieldEnd, depth + 1));
      else if (field === 15) status = statusOf(r, fieldEnd, depth + 1, status);
    } else if (wire === WIRE_FIXED64 && field === 7) start = r.fixed64();
    else if (wire === WIRE_FIXED64 && field === 8) endTime = r.fixed64();
    else if (wire === WIRE_VARINT && field === 6) kind = r.int32();
    else r.skip(wire);
  });
  return {
    traceId,
    spanId,
    parentSpanId,
    name,
    kind: KIND_BY_NUMBER[kind],
    startTimeUnixNano: start,
    endTimeUnixNano: endTime,
    attributes,
    events,
    links,
    status,
  };
}

function eventOf(r: WireReader, end: number, depth: number): OtelEvent {
  let name = '';
  let time = '0';
  const attributes: OtelAttributes = {};
  r.fields(end, depth, (field, wire, fieldEnd) => {
    if (field === 1 && wire === WIRE_FIXED64) time = r.fixed64();
    else if (field === 2 && wire === WIRE_LENGTH) name = r.string(fieldEnd);
    else if (field === 3 && wire === WIRE_LENGTH) keyValueInto(r, fieldEnd, depth + 1, 0, attributes);
    else r.skip(wire);
  });
  return { name, timeUnixNano: time, attributes };
}

function linkOf(r: WireReader, end: number, depth: number): OtelLink {
  let traceId = '';
  let spanId = '';
  const attributes: OtelAttributes = {};
  r.fields(end, depth, (field, wire, fieldEnd) => {
    if (field === 1 && wire === WIRE_LENGTH) traceId = r.hex(fieldEnd);
    else if (field === 2 && wire === WIRE_LENGTH) spanId = r.hex(fieldEnd);
    else if (field === 4 && wire === WIRE_LENGTH) keyValueInto(r, fieldEnd, depth + 1, 0, attributes);
    else r.skip(wire);
  });
  return { traceId, spanId, attributes };
}

/** A Status merges into the one before it (a field given twice), as protobufjs merges messages. */
function statusOf(r: WireReader, end: number, depth: number, before: OtelSpan['status']): OtelSpan['status'] {
  let code = before?.code ?? 0;
  let message = before?.message ?? '';
  r.fields(end, depth, (field, wire, fieldEnd) => {
    if (field === 2 && wire === WIRE_LENGTH) message = r.string(fieldEnd);
    else if (field === 3 && wire === WIRE_VARINT) code = r.int32();
    else r.skip(wire);
  });
  return { code, message };
}

/** One KeyValue (`key` 1, `value` 2) into `out`: a key given twice keeps the last value. */
function keyValueInto(
  r: WireReader,
  end: number,
  depth: number,
  valueDepth: number,
  out: OtelAttributes,
): void {
  let key = '';
  let value: OtelAttributeValue = null;
  r.fields(end, depth, (field, wire, fieldEnd) => {
    if (field === 1 && wire === WIRE_LENGTH) key = r.string(fieldEnd);
    else if (field === 2 && wire === WIRE_LENGTH) value = anyValueOf(r, fieldEnd, depth + 1, valueDepth);
    else r.skip(wire);
  });
  setOwnKey(out as Record<string, OtelAttributeValue>, key, value);
}

/** An AnyValue as `anyValueOf` (any-value.ts) reads protobufjs' message: the last member on the wire wins. */
function anyValueOf(r: WireReader, end: number, depth: number, valueDepth: number): OtelAttributeValue {
  let value: OtelAttributeValue = null;
  r.fields(end, depth, (field, wire, fieldEnd) => {
    if (field === 1 && wire === WIRE_LENGTH) value = r.string(fieldEnd);
    else if (field === 2 && wire === WIRE_VARINT) value = r.int32() !== 0;
    else if (field === 3 && wire === WIRE_VARINT) value = r.int64();
    else if (field === 4 && wire === WIRE_FIXED64) value = r.double();
    else if (field === 7 && wire === WIRE_LENGTH) value = r.base64(fieldEnd);
    else if ((field === 5 || field === 6) && wire === WIRE_LENGTH) {
      if (valueDepth >= MAX_VALUE_DEPTH) {
        // Still read through, as protobufjs decodes it (its depth limit applies), then cut.
        r.nested(fieldEnd, depth + 1);
        value = TOO_DEEP;
      } else if (field === 5) {
        const values: OtelAttributeValue[] = [];
        r.fields(fieldEnd, depth + 1, (f, w, e) => {
          if (f === 1 && w === WIRE_LENGTH) values.push(anyValueOf(r, e, depth + 2, valueDepth + 1));
          else r.skip(w);
        });
        value = values;
      } else {
        const entries: OtelAttributes = {};
        r.fields(fieldEnd, depth + 1, (f, w, e) => {
          if (f === 1 && w === WIRE_LENGTH) keyValueInto(r, e, depth + 2, valueDepth + 1, entries);
          else r.skip(w);
        });
        value = entries as OtelAttributeValue;
      }
    } else r.skip(wire);
  });
  return value;
}

function notARequest(reason: string): InvalidRequestError {
  return new InvalidRequestError(
    [{ path: '', message: `not an OTLP ExportTraceServiceRequest (${reason})` }],
    'body',
  );
}

/** A cursor over protobuf wire bytes. */
class WireReader {
  readonly #bytes: Uint8Array;
  readonly #buffer: Buffer;
  /** Fields left to read before the request is refused. */
  #budget: number;
  pos = 0;

  constructor(bytes: Uint8Array, maxNodes: number) {
    this.#budget = maxNodes;
    this.#bytes = bytes;
    this.#buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /**
   * Calls `visit(field, wireType, end)` for each field up to `end` (`end`:
   * where a length-delimited field's bytes end; the visitor reads or skips
   * the field), and leaves the reader at `end`.
   */
  fields(end: number, depth: number, visit: (field: number, wire: number, end: number) => void): void {
    if (depth > RECURSION_LIMIT) throw new Error(MAX_DEPTH);
    while (this.pos < end) {
      const tag = this.varint32();
      if (--this.#budget < 0) throw TOO_MANY_NODES;
      const wire = tag & 7;
      const field = tag >>> 3;
      let fieldEnd = this.pos;
      if (wire === WIRE_LENGTH) {
        const length = this.varint32();
        fieldEnd = this.pos + length;
        if (fieldEnd > end) throw new RangeError(`index out of range: ${this.pos} + ${length} > ${end}`);
      }
      visit(field, wire, fieldEnd);
      if (wire === WIRE_LENGTH) this.pos = fieldEnd;
    }
    if (this.pos > end) throw new RangeError(`index out of range: ${this.pos} > ${end}`);
  }

  /** Walks a nested message's fields (for the depth limit) without keeping them. */
  nested(end: number, depth: number): void {
    this.fields(end, depth, (_field, wire, fieldEnd) => {
      if (wire === WIRE_LENGTH) this.nested(fieldEnd, depth + 1);
      else this.skip(wire);
    });
  }

  /** Skips a field's value of wire type `wire` (a length-delimited one is skipped by {@link fields}). */
  skip(wire: number): void {
    switch (wire) {
      case WIRE_VARINT:
        this.varint32();
        return;
      case WIRE_FIXED64:
        this.#advance(8);
        return;
      case WIRE_LENGTH:
        return;
      case WIRE_FIXED32:
        this.#advance(4);
        return;
      default:
        throw new Error(`invalid wire type ${wire} at offset ${this.pos}`);
    }
  }

  #advance(n: number): void {
    if (this.pos + n > this.#bytes.byteLength) throw new RangeError(`index out of range: ${this.pos} + ${n}`);
    this.pos += n;
  }

  /** A varint's low 32 bits (the rest read and dropped), as protobufjs' `uint32`. */
  varint32(): number {
    const bytes = this.#bytes;
    let value = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      if (this.pos >= bytes.byteLength) throw new RangeError(`index out of range: ${this.pos} + 1`);
      const b = bytes[this.pos++] as number;
      if (shift < 32) value |= (b & 0x7f) << shift;
      if (b < 0x80) return value >>> 0;
    }
    throw new Error('invalid varint encoding');
  }

  int32(): number {
    return this.varint32() | 0;
  }

  /** An int64 varint as `integerOf` reads protobufjs' Long: a safe number, or its signed decimal string. */
  int64(): number | string {
    const bytes = this.#bytes;
    let low = 0;
    let high = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      if (this.pos >= bytes.byteLength) throw new RangeError(`index out of range: ${this.pos} + 1`);
      const b = bytes[this.pos++] as number;
      const bits = b & 0x7f;
      if (shift < 28) low |= bits << shift;
      else if (shift === 28) {
        low |= bits << 28;
        high |= bits >>> 4;
      } else high |= bits << (shift - 32);
      if (b < 0x80) {
        if (Math.abs(high | 0) < 0x200000) return (high | 0) * 0x100000000 + (low >>> 0);
        return BigInt.asIntN(64, (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0)).toString();
      }
    }
    throw new Error('invalid varint encoding');
  }

  /** A fixed64 (nanoseconds) as a decimal string. */
  fixed64(): string {
    this.#advance(8);
    const low = this.#buffer.readUInt32LE(this.pos - 8);
    const high = this.#buffer.readUInt32LE(this.pos - 4);
    if (high < 0x200000) return String(high * 0x100000000 + low);
    return ((BigInt(high) << 32n) | BigInt(low)).toString();
  }

  double(): number | string {
    this.#advance(8);
    const value = this.#buffer.readDoubleLE(this.pos - 8);
    // proto3 JSON's spelling of the non-finite doubles, as `doubleOf` gives them.
    return Number.isFinite(value) ? value : String(value);
  }

  string(end: number): string {
    const text = this.#buffer.toString('utf8', this.pos, end);
    this.pos = end;
    return text;
  }

  hex(end: number): string {
    const text = this.#buffer.toString('hex', this.pos, end);
    this.pos = end;
    return text;
  }

  base64(end: number): string {
    const text = this.#buffer.toString('base64', this.pos, end);
    this.pos = end;
    return text;
  }
}
