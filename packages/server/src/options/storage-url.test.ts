import { describe, expect, it } from 'vitest';
import { parseStorageUrl, redactStorageUrl } from './storage-url.js';

describe('parseStorageUrl', () => {
  it.each([
    ['sqlite:./.weft/weft.db', { kind: 'sqlite', path: './.weft/weft.db' }],
    ['sqlite:///abs/w.db', { kind: 'sqlite', path: '/abs/w.db' }],
    [
      'clickhouse://127.0.0.1:8123/weft',
      { kind: 'clickhouse', options: { hosts: ['http://127.0.0.1:8123'], database: 'weft' } },
    ],
    [
      'clickhouse://db.internal/weft',
      { kind: 'clickhouse', options: { hosts: ['http://db.internal:8123'], database: 'weft' } },
    ],
    ['chdb:./.weft/chdb', { kind: 'clickhouse', options: { chdbPath: './.weft/chdb', database: 'weft' } }],
    ['chdb:///tmp/c?database=t_1', { kind: 'clickhouse', options: { chdbPath: '/tmp/c', database: 't_1' } }],
    [
      'chdb:/tmp/c?database=t_1&settleMs=0',
      { kind: 'clickhouse', options: { chdbPath: '/tmp/c', database: 't_1', completionSettleMs: 0 } },
    ],
    ['clickhouses://h:8443/w', { kind: 'clickhouse', options: { hosts: ['https://h:8443'], database: 'w' } }],
    [
      'clickhouse://u%40x:p%3Aw%40@a:1,b:2/weft?cluster=two&timeoutMs=500',
      {
        kind: 'clickhouse',
        options: {
          hosts: ['http://a:1', 'http://b:2'],
          database: 'weft',
          username: 'u@x',
          password: 'p:w@',
          cluster: 'two',
          requestTimeoutMs: 500,
        },
      },
    ],
  ])('parses %s', (url, expected) => {
    expect(parseStorageUrl(url)).toEqual(expected);
  });

  it('takes credentials from outside the URL unless the URL has its own', () => {
    const env = { username: 'env-user', password: 'env-pass' };
    expect(parseStorageUrl('clickhouse://h:1/db', env)).toMatchObject({ options: env });
    expect(parseStorageUrl('clickhouse://me:secret@h:1/db', env)).toMatchObject({
      options: { username: 'me', password: 'secret' },
    });
  });

  it.each([
    'mysql://h/db',
    'sqlite:',
    'clickhouse://h:1',
    'clickhouse:///db',
    'clickhouse://h:1/db?colour=red',
  ])('refuses %s with WEFT_INVALID_OPTIONS at storage', (url) => {
    expect(() => parseStorageUrl(url)).toThrow(
      expect.objectContaining({ code: 'WEFT_INVALID_OPTIONS', path: 'storage' }),
    );
  });

  it('never repeats a password in an error or a redacted URL', () => {
    expect(() => parseStorageUrl('clickhouse://u:hunter2@h:1/db?x=1')).toThrow(
      expect.not.objectContaining({ message: expect.stringContaining('hunter2') }),
    );
    expect(redactStorageUrl('clickhouse://u:hunter2@h:1/db')).toBe('clickhouse://u:***@h:1/db');
  });
});
