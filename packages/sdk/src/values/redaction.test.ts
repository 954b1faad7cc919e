import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactedKeyMatcher } from './redact.js';
import { DEFAULT_REDACTED_ENDINGS, normalizeKeyName, REDACTED, sanitize } from './index.js';

class Config {
  apiKey = 'sk-live';
  model = 'gpt';
}

describe('redactedKeyMatcher', () => {
  it('answers exactly what the rules say for the normalized key, whatever the keys and names (the shortcut never changes an answer)', () => {
    const tricky = fc.constantFrom(
      'token',
      'TOKEN',
      'to\u212Aen',
      '\u212Aey',
      'key',
      'access_token_',
      'x-api-key',
      'İd',
      'i\u0307d',
      'ß',
      'SS',
      '',
      '-',
      'a'.repeat(37),
      'A'.repeat(37),
      'a'.repeat(5),
    );
    const key = fc.oneof(tricky, fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 8 }));
    const rules = (name: string, names: ReadonlySet<string>) =>
      names.has(name) || DEFAULT_REDACTED_ENDINGS.some((ending) => name.endsWith(ending));
    fc.assert(
      fc.property(
        fc.array(fc.oneof(tricky, fc.string({ maxLength: 40 })), { maxLength: 6 }),
        fc.array(key, { maxLength: 30 }),
        (names, keys) => {
          const matches = redactedKeyMatcher(new Set(names));
          const normalized = new Set(names.map(normalizeKeyName));
          for (const k of keys)
            expect(matches(k), JSON.stringify(k)).toBe(rules(normalizeKeyName(k), normalized));
        },
      ),
      { numRuns: 3_000 },
    );
  });
});

describe('redaction', () => {
  it('redacts the default keys case-insensitively at any depth', () => {
    const value = {
      API_KEY: 'secret-a',
      headers: { Authorization: 'Bearer b', accept: 'json' },
      users: [{ name: 'ann', PassWord: 'secret-c' }],
      nested: { deeper: { SECRET: { even: 'objects' }, Token: 1 } },
      config: new Config(),
      map: new Map<unknown, unknown>([
        ['apikey', 'secret-d'],
        [1, 'numbers are not keys'],
      ]),
      error: Object.assign(new Error('e'), { token: 'secret-e' }),
    };
    const { value: result } = sanitize(value);
    expect(result).toMatchObject({
      API_KEY: REDACTED,
      headers: { Authorization: REDACTED, accept: 'json' },
      users: [{ name: 'ann', PassWord: REDACTED }],
      nested: { deeper: { SECRET: REDACTED, Token: REDACTED } },
      config: { _weft: 'instance', class: 'Config', value: { apiKey: REDACTED, model: 'gpt' } },
      map: {
        entries: [
          ['apikey', REDACTED],
          [1, 'numbers are not keys'],
        ],
      },
      error: { _weft: 'error', props: { token: REDACTED } },
    });
    expect(JSON.stringify(result)).not.toMatch(/sk-live|Bearer|secret-/);
  });

  it('has the documented default rules', () => {
    expect([...DEFAULT_REDACTED_ENDINGS].sort()).toEqual([
      'apikey',
      'authorization',
      'cookie',
      'cookies',
      'jwt',
      'passphrase',
      'passwd',
      'password',
      'privatekey',
      'secret',
      'secretaccesskey',
      'token',
    ]);
  });

  it('never calls the getter of a key it redacts by name', () => {
    let reads = 0;
    const value = {
      get password() {
        reads++;
        return 'hunter2';
      },
    };
    const error = new Error('e');
    Object.defineProperty(error, 'Token', { enumerable: true, get: () => `${reads++}` });
    expect(sanitize({ value, error }).value).toMatchObject({
      value: { password: REDACTED },
      error: { _weft: 'error', props: { Token: REDACTED } },
    });
    expect(reads).toBe(0);
  });

  it('adds redactKeys to the default rules, matched whatever their case and separators', () => {
    const { value } = sanitize(
      { password: 'p', SSN: '123', 'tenant-key': 'k', name: 'n' },
      { redactKeys: new Set(['ssn', 'Tenant_Key']) },
    );
    expect(value).toEqual({ password: REDACTED, SSN: REDACTED, 'tenant-key': REDACTED, name: 'n' });
    expect(sanitize({ token: 't' }, { redactKeys: new Set() }).value).toEqual({ token: REDACTED });
  });

  it('asks the user function about every key, with the key, the value and its path', () => {
    const asked: [string, unknown, readonly (string | number)[]][] = [];
    const { value } = sanitize(
      { user: { email: 'a@b.c', name: 'ann' }, list: [{ email: 'x@y.z' }] },
      {
        redact: (key, member, path) => {
          asked.push([key, member, path]);
          return key === 'email';
        },
      },
    );
    expect(value).toEqual({ user: { email: REDACTED, name: 'ann' }, list: [{ email: REDACTED }] });
    expect(asked).toContainEqual(['email', 'a@b.c', ['user', 'email']]);
    expect(asked).toContainEqual(['email', 'x@y.z', ['list', 0, 'email']]);
    expect(asked).toContainEqual(['name', 'ann', ['user', 'name']]);
  });

  it('fails closed when the user function throws, and reports the error', () => {
    const errors: [unknown, readonly (string | number)[]][] = [];
    const { value } = sanitize(
      { safe: 'shown', risky: 'hidden' },
      {
        redact: (key) => {
          if (key === 'risky') throw new Error('rule broke');
          return false;
        },
        onError: (error, path) => errors.push([error, path]),
      },
    );
    expect(value).toEqual({ safe: 'shown', risky: REDACTED });
    expect(errors).toHaveLength(1);
    expect(errors[0]![1]).toEqual(['risky']);
  });

  it('refuses redactKeys that hold no key name, printing what it got', () => {
    expect(() => sanitize({}, { redactKeys: new Set(['--']) })).toThrow(
      expect.objectContaining({ code: 'WEFT_INVALID_OPTIONS', message: expect.stringContaining('"--"') }),
    );
    expect(() => sanitize({}, { redactKeys: ['ssn'] as unknown as Set<string> })).toThrow(
      expect.objectContaining({ message: expect.stringContaining("got [ 'ssn' ]") }),
    );
  });
});
