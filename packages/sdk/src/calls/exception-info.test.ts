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
