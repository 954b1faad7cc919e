import { describe, expect, it } from 'vitest';
import { exceptionInfo } from './exception-info.js';

describe('exceptionInfo', () => {
  it('keeps name, message, stack and the cause chain', () => {
    const info = exceptionInfo(new TypeError('outer', { cause: new Error('inner', { cause: 'root' }) }));
    expect(info).toMatchObject({
      name: 'TypeError',
      message: 'outer',
      cause: { name: 'Error', message: 'inner', cause: { name: 'NonError', message: 'root' } },
    });
    expect(info.stack).toContain('TypeError: outer');
  });

  it('names a subclass that inherits a built-in name by its class (what the caller would instanceof), and keeps a name a class sets', () => {
    class APIError extends Error {}
    class RateLimitError extends APIError {}
    class Named extends TypeError {
      override name = 'CustomName';
    }
    class NamedByPrototype extends Error {}
    Object.defineProperty(NamedByPrototype.prototype, 'name', { value: 'FromPrototype' });
    expect(exceptionInfo(new RateLimitError('429 slow down')).name).toBe('RateLimitError');
    expect(exceptionInfo(new (class extends RangeError {})('x')).name).toBe('RangeError');
    expect(exceptionInfo(new Named('x')).name).toBe('CustomName');
    expect(exceptionInfo(new NamedByPrototype('x')).name).toBe('FromPrototype');
    expect(exceptionInfo(new TypeError('x')).name).toBe('TypeError');
    expect(exceptionInfo(new Error('x', { cause: new RateLimitError('inner') })).cause?.name).toBe(
      'RateLimitError',
    );
  });

  it('survives a cyclic cause, a thrown non-Error and a hostile object', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(exceptionInfo(a)).toMatchObject({ message: 'a', cause: { message: 'b' } });
    expect(exceptionInfo(42)).toEqual({ name: 'NonError', message: '42' });
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('trap');
        },
      },
    );
    expect(exceptionInfo(hostile)).toMatchObject({ name: 'Error' });
  });
});
