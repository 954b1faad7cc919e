import { describe, expect, it } from 'vitest';
import { Sanitizer, sanitize } from './index.js';
import { expectWireSafe } from './wire-safe.test-support.js';

class Prompt {
  constructor(readonly text: string) {}
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const REF = 'weft:///p/object/Prompt:abc';

describe('onObject', () => {
  it('replaces an object by the ref string it returns and walks the others', () => {
    const seen: object[] = [];
    const { value, pending } = sanitize(
      { prompt: new Prompt('hi'), plain: { a: 1 } },
      {
        onObject: (object) => {
          seen.push(object);
          return object instanceof Prompt ? REF : undefined;
        },
      },
    );
    expect(value).toEqual({ prompt: REF, plain: { a: 1 } });
    expect(pending).toEqual([]);
    expect(seen.some((o) => o instanceof Prompt)).toBe(true);
  });

  it('writes a pending ref into every place the object appears once the promise resolves', async () => {
    const ref = deferred<string>();
    const prompt = new Prompt('hi');
    const sanitizer = new Sanitizer(
      { first: prompt, list: [prompt], after: 'kept' },
      { onObject: (object) => (object === prompt ? ref.promise : undefined) },
    );
    expect(sanitizer.step(Number.POSITIVE_INFINITY)).toBe(true);
    expect(sanitizer.result).toEqual({
      first: { _weft: 'pending' },
      list: [{ _weft: 'pending' }],
      after: 'kept',
    });
    expect(sanitizer.pending).toHaveLength(1);
    ref.resolve(REF);
    await Promise.all(sanitizer.pending);
    expect(sanitizer.result).toEqual({ first: REF, list: [REF], after: 'kept' });
    expectWireSafe(sanitizer.result);
  });

  it('writes an error marker for a rejected hook promise, reports it, and its pending promise resolves', async () => {
    const errors: [unknown, readonly (string | number)[]][] = [];
    const { value, pending } = sanitize(
      { a: { nested: new Prompt('x') } },
      {
        onObject: (object) =>
          object instanceof Prompt ? Promise.reject(new Error('upload failed')) : undefined,
        onError: (error, path) => errors.push([error, path]),
      },
    );
    await expect(Promise.all(pending)).resolves.toBeDefined();
    expect(value).toEqual({
      a: { nested: { _weft: 'unreadable', reason: 'hook', error: 'Error: upload failed' } },
    });
    expect(errors[0]![1]).toEqual(['a', 'nested']);
  });

  it('writes an error marker when the promise resolves to something other than a string', async () => {
    const errors: unknown[] = [];
    const { value, pending } = sanitize([new Prompt('x')], {
      onObject: (object) => (object instanceof Prompt ? (Promise.resolve(42) as never) : undefined),
      onError: (error) => errors.push(error),
    });
    await Promise.all(pending);
    expect(value).toEqual([
      { _weft: 'unreadable', reason: 'hook', error: expect.stringContaining('Promise of number') },
    ]);
    expect(errors).toEqual([expect.objectContaining({ code: 'WEFT_INVALID_HOOK_RESULT' })]);
  });

  it('walks the object normally when the hook throws or returns a non-ref, and reports it', () => {
    const errors: unknown[] = [];
    const { value } = sanitize(
      { thrown: new Prompt('a'), wrong: new Prompt('b') },
      {
        onObject: (object) => {
          if (!(object instanceof Prompt)) return undefined;
          if (object.text === 'a') throw new Error('hook broke');
          return 7 as never;
        },
        onError: (error) => errors.push(error),
      },
    );
    expect(value).toEqual({
      thrown: { _weft: 'instance', class: 'Prompt', value: { text: 'a' } },
      wrong: { _weft: 'instance', class: 'Prompt', value: { text: 'b' } },
    });
    expect(errors).toEqual([
      expect.any(Error),
      expect.objectContaining({ code: 'WEFT_INVALID_HOOK_RESULT' }),
    ]);
  });

  it('can replace the root value', async () => {
    const { value } = sanitize(new Prompt('root'), { onObject: () => REF });
    expect(value).toBe(REF);
    const s = new Sanitizer(new Prompt('root'), { onObject: () => Promise.resolve(REF) });
    s.step(10);
    await Promise.all(s.pending);
    expect(s.result).toBe(REF);
  });
});

describe('onBlob', () => {
  it('receives the bytes of Buffers, typed array views, ArrayBuffers and DataViews', () => {
    const got: number[][] = [];
    const backing = new Uint8Array([0, 1, 2, 3, 4, 5]);
    const { value } = sanitize(
      [
        Buffer.from([7, 8]),
        backing.subarray(2, 4),
        new Uint16Array([258]),
        backing.buffer,
        new DataView(backing.buffer, 5),
      ],
      {
        onBlob: (bytes) => {
          got.push([...bytes]);
          return `weft:///p/file/${got.length}`;
        },
      },
    );
    expect(got).toEqual([[7, 8], [2, 3], [2, 1], [0, 1, 2, 3, 4, 5], [5]]);
    expect(value).toEqual([1, 2, 3, 4, 5].map((i) => `weft:///p/file/${i}`));
  });

  it('resolves promised blob refs into place and falls back to the inline form on undefined', async () => {
    const { value, pending } = sanitize(
      { big: Buffer.alloc(10), small: Buffer.from([1]) },
      { onBlob: (bytes) => (bytes.byteLength > 5 ? Promise.resolve('weft:///p/file/big') : undefined) },
    );
    await Promise.all(pending);
    expect(value).toEqual({
      big: 'weft:///p/file/big',
      small: { _weft: 'binary', type: 'Buffer', byteLength: 1, base64: 'AQ==' },
    });
  });

  it('does not pass binary data to onObject', () => {
    const seen: object[] = [];
    sanitize({ b: Buffer.from('x') }, { onObject: (o) => void seen.push(o) });
    expect(seen.some((o) => Buffer.isBuffer(o))).toBe(false);
  });
});
