import { describe, expect, it } from 'vitest';
import {
  callIdOfSpan,
  isValidOtelSpanId,
  isValidOtelTraceId,
  otelSpanIdOf,
  otelTraceIdOf,
  traceIdOfOtel,
} from './trace-ids.js';

describe('trace ids', () => {
  const trace = '0195f3a27c1d7a008f3e1b2c3d4e5f60';
  const span = '9a8b7c6d5e4f3a2b';

  it('maps a span to a call id made of the trace id head and the span id', () => {
    expect(callIdOfSpan(trace, span)).toBe('0195f3a2-7c1d-7a00-9a8b-7c6d5e4f3a2b');
    expect(traceIdOfOtel(trace)).toBe('0195f3a2-7c1d-7a00-8f3e-1b2c3d4e5f60');
  });

  it('round-trips: the span id of the call of a span is that span id', () => {
    const call = callIdOfSpan(trace, span);
    expect(otelSpanIdOf(call)).toBe(span);
    expect(otelTraceIdOf(traceIdOfOtel(trace))).toBe(trace);
  });

  it('maps a Weft root call (id = trace id) to itself', () => {
    const root = '0195f3a2-7c1d-7a00-8f3e-1b2c3d4e5f60';
    expect(callIdOfSpan(otelTraceIdOf(root), otelSpanIdOf(root))).toBe(root);
  });

  it.each([
    ['0'.repeat(32), false],
    ['ABCDEF0123456789abcdef0123456789', false],
    [trace, true],
    [trace.slice(1), false],
  ])('trace id %s valid: %s', (hex, valid) => expect(isValidOtelTraceId(hex)).toBe(valid));

  it.each([
    ['0'.repeat(16), false],
    [span, true],
    [`${span}0`, false],
  ])('span id %s valid: %s', (hex, valid) => expect(isValidOtelSpanId(hex)).toBe(valid));
});
