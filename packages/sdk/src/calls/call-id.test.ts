import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { callIdOfSpan, otelSpanIdOf, otelTraceIdOf } from '@weft/protocol';
import { isTraceSampled } from '../sampling/trace-sampled.js';
import { newCallId, newChildCallId, newTraceBits } from './call-id.js';

describe('newCallId', () => {
  it('ends with the 32 trace bits it is given, so a sampling decision on the bits is the decision on the id', () => {
    for (let i = 0; i < 1_000; i++) {
      const bits = newTraceBits();
      const id = newCallId(bits);
      expect(validate(id)).toBe(true);
      expect(Number.parseInt(id.slice(-8), 16)).toBe(bits);
      expect(isTraceSampled(id, 0.5)).toBe(bits < 0x8000_0000);
    }
  });

  it('makes valid, unique UUID v7s that sort in creation order', () => {
    const ids = Array.from({ length: 20_000 }, () => newCallId());
    for (const id of ids.slice(0, 1_000)) {
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('carries the creation time in its first 48 bits', () => {
    const before = Date.now();
    const id = newCallId();
    const ms = Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    // At most a few ms ahead: a burst may borrow the next milliseconds once a sequence runs out.
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThan(Date.now() + 1_000);
  });
});

describe('newChildCallId', () => {
  it("starts with its trace id's first 8 bytes, so the W3C mapping finds it from the trace and span ids", () => {
    const traceId = newCallId();
    const ids = Array.from({ length: 5_000 }, () => newChildCallId(traceId));
    for (const id of ids.slice(0, 500)) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(id.slice(0, 18)).toBe(traceId.slice(0, 18));
      expect(callIdOfSpan(otelTraceIdOf(traceId), otelSpanIdOf(id))).toBe(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('leaves the root ids made between children intact', () => {
    const traceId = '0195f3a2-7c1d-7a00-8f3e-1b2c3d4e5f60';
    const child = newChildCallId(traceId);
    const root = newCallId();
    expect(child.startsWith('0195f3a2-7c1d-7a00-')).toBe(true);
    expect(root).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
