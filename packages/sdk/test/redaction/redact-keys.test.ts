import type { CallItem } from '@weft/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import type { WeftOptions } from '@weft/sdk';
import { createClient, resetWeft } from '../../src/testing/index.js';
import { memorySink } from '../support/memory-sink.js';

const R = '[REDACTED]';

afterEach(() => resetWeft());

/** The inputs a call of `value` records through a client made with `options`. */
async function recordedInputs(value: unknown, options: Partial<WeftOptions> = {}): Promise<unknown> {
  const sink = memorySink();
  const client = createClient(
    { project: 'redact-keys', outbox: false, handleExit: false, ...options },
    () => sink,
  );
  await client.op(async function call(input: unknown) {
    return input === undefined;
  })(value);
  await client.flush();
  const item = sink.items.find((i): i is Extract<CallItem, { type: 'complete' }> => i.type === 'complete');
  return (item?.inputs as { input?: unknown } | undefined)?.input;
}

describe('redaction by key name', () => {
  it('redacts the widened default names whatever their case and separators, and keeps token counts', async () => {
    const secrets = {
      headers: {
        'x-api-key': 'sk-ant-1',
        Authorization: 'Bearer b',
        'Proxy-Authorization': 'Basic p',
        cookie: 'sid=c',
        'Set-Cookie': 'sid=d',
        'X-Auth-Token': 't1',
      },
      oauth: {
        access_token: 'at',
        refreshToken: 'rt',
        id_token: 'it',
        client_secret: 'cs',
        token_type: 'Bearer',
      },
      env: { OPENAI_API_KEY: 'sk-1', AWS_SECRET_ACCESS_KEY: 'aws', GITHUB_TOKEN: 'gh', DB_PASSWORD: 'pw' },
      keys: {
        private_key: '-----BEGIN',
        privateKey: 'pk',
        passphrase: 'pp',
        jwt: 'e30',
        apiKey: 'k',
        secret: 's',
      },
      usage: { max_tokens: 100, prompt_tokens: 12, completion_tokens: 7, tokens: ['a'], tokenizer: 'bpe' },
      other: { author: 'ann', session_id: 's-1', keyboard: 'qwerty', secretary: 'bob' },
    };
    expect(await recordedInputs(secrets)).toEqual({
      headers: {
        'x-api-key': R,
        Authorization: R,
        'Proxy-Authorization': R,
        cookie: R,
        'Set-Cookie': R,
        'X-Auth-Token': R,
      },
      oauth: { access_token: R, refreshToken: R, id_token: R, client_secret: R, token_type: 'Bearer' },
      env: { OPENAI_API_KEY: R, AWS_SECRET_ACCESS_KEY: R, GITHUB_TOKEN: R, DB_PASSWORD: R },
      keys: { private_key: R, privateKey: R, passphrase: R, jwt: R, apiKey: R, secret: R },
      usage: secrets.usage,
      other: secrets.other,
    });
  });

  it('takes redactKeys as an array or a Set, in any case, added to the defaults', async () => {
    const value = { SSN: '123', 'tenant-key': 'tk', password: 'pw', name: 'ann' };
    const expected = { SSN: R, 'tenant-key': R, password: R, name: 'ann' };
    expect(await recordedInputs(value, { redactKeys: ['ssn', 'Tenant_Key'] })).toEqual(expected);
    expect(await recordedInputs(value, { redactKeys: new Set(['ssn', 'tenantKey']) })).toEqual(expected);
    // An empty list adds nothing and takes nothing away.
    expect(await recordedInputs(value, { redactKeys: [] })).toEqual({ ...value, password: R });
  });

  it('refuses a bad redactKeys, printing the value it got', () => {
    const make = (redactKeys: unknown) => () =>
      createClient({ project: 'redact-keys', outbox: false, handleExit: false, redactKeys } as WeftOptions);
    expect(make('ssn')).toThrow(
      expect.objectContaining({
        code: 'WEFT_INVALID_OPTIONS',
        message: expect.stringContaining('got "ssn"'),
      }),
    );
    expect(make(new Set(['ssn', 42]))).toThrow(
      expect.objectContaining({ message: expect.stringContaining("got Set(2) { 'ssn', 42 }") }),
    );
    expect(make(['--'])).toThrow(expect.objectContaining({ message: expect.stringContaining('key name') }));
  });
});
