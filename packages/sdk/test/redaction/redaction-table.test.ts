import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Call } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/init.js';
import type { WeftClient } from '../../src/client/weft-client.js';
import { withAttributes } from '../../src/context/index.js';
import { Evaluation } from '../../src/eval/evaluation.js';
import { startTestServer, type TestServer } from '@weft/test-server';

// Each secret sits under a key the rules redact; the test then looks for it everywhere else.
const PASSWORD = 'hunter2-pw'; // default key `password`
const SSN = 'ssn-123-45'; // user `redact` function: key `ssn`
const TOKEN = 'tok-abcdef'; // default key `token`, in the output
const API_KEY = 'attr-key-9'; // default key `api_key`, in the attributes
const SECRETS = [PASSWORD, SSN, TOKEN, API_KEY];
const R = '[REDACTED]';

/** Redacts `ssn` anywhere, and any free-text message that quotes a live key. */
const redact = (key: string, value: unknown) =>
  key === 'ssn' || (key === 'message' && typeof value === 'string' && value.includes('sk-live'));

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer({ register: afterAll });
  dir = await mkdtemp(join(tmpdir(), 'weft-redaction-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Traces every field redaction must reach; returns the ids of the calls. */
async function traceEverything(
  client: WeftClient,
): Promise<Record<'complete' | 'ended' | 'freeText' | 'ok', string>> {
  const ids: Record<string, string> = {};
  const remember = (name: string) => (call: { id: string }) => {
    ids[name] = call.id;
  };
  const login = client.op(
    async function login(user: string, password: string, profile: { ssn: string }) {
      const cause = new Error(`bad ssn ${profile.ssn}`);
      throw new Error(`login ${password} refused for ${user} (${profile.ssn})`, { cause });
    },
    { displayName: (inputs) => `login ${String(inputs.password)}`, onFinish: remember('complete') },
  );
  await withAttributes({ api_key: API_KEY, note: `uses ${PASSWORD}` }, () =>
    login('ann', PASSWORD, { ssn: SSN }).catch(() => undefined),
  );

  // A call running long enough that its start travels alone: its end record carries
  // the exception but not the inputs the message quotes.
  let started!: () => void;
  const startSent = new Promise<void>((resolve) => {
    started = resolve;
  });
  const slow = client.op(
    async function slow(password: string) {
      await startSent;
      throw new Error(`slow login ${password}`);
    },
    { name: 'slow', onFinish: remember('ended') },
  );
  const running = slow(PASSWORD).catch(() => undefined);
  // The in-flight ticker submits the start (startDelayMs 0); each flush waits for what was submitted.
  for (let status: string | undefined; status !== 'running'; ) {
    await client.flush();
    status = undefined;
    for await (const call of client.getCalls({ opName: 'slow' })) status = call.status;
  }
  started();
  await running;

  const leak = client.op(
    async function leak() {
      throw new Error('key sk-live-123 rejected');
    },
    { onFinish: remember('freeText') },
  );
  await leak().catch(() => undefined);

  const ok = client.op(
    async function ok() {
      return { token: TOKEN, text: `token was ${TOKEN}` };
    },
    { onFinish: remember('ok') },
  );
  await ok();
  return ids as Record<'complete' | 'ended' | 'freeText' | 'ok', string>;
}

describe('redaction table: every field, by the same keys and function', () => {
  let calls: Record<string, Call>;
  beforeAll(async () => {
    const client = createClient({
      project: 'redaction',
      url: server.url,
      outbox: false,
      handleExit: false,
      startDelayMs: 0,
      redact,
    });
    try {
      const ids = await traceEverything(client);
      await client.flush();
      calls = {};
      for (const [name, id] of Object.entries(ids)) calls[name] = (await client.getCall(id)) as Call;
    } finally {
      await client.shutdown();
    }
  });

  const get = (name: string, path: (call: Call) => unknown) => () => path(calls[name] as Call);
  it.each([
    ['inputs (default key)', get('complete', (c) => c.inputs.password), R],
    ['inputs (redact function)', get('complete', (c) => (c.inputs.profile as { ssn: string }).ssn), R],
    ['output (default key)', get('ok', (c) => (c.output as { token: string }).token), R],
    [
      'output (other string quoting a redacted value)',
      get('ok', (c) => (c.output as { text: string }).text),
      `token was ${R}`,
    ],
    ['display name', get('complete', (c) => c.displayName), `login ${R}`],
    ['exception message', get('complete', (c) => c.exception?.message), `login ${R} refused for ann (${R})`],
    ['exception cause', get('complete', (c) => c.exception?.cause?.message), `bad ssn ${R}`],
    ['attributes (default key)', get('complete', (c) => c.attributes.api_key), R],
    ['attributes (free text)', get('complete', (c) => c.attributes.note), `uses ${R}`],
    [
      'exception of an end record sent after its start',
      get('ended', (c) => c.exception?.message),
      `slow login ${R}`,
    ],
    ['exception message (redact function on free text)', get('freeText', (c) => c.exception?.message), R],
  ])('%s', (_field, read, expected) => {
    expect(read()).toBe(expected);
  });

  it('exception stacks hold no secret, and no stored call holds one anywhere', () => {
    expect(calls.complete?.exception?.stack).toContain(`login ${R} refused`);
    expect(calls.ended?.exception?.stack).toContain(`slow login ${R}`);
    const stored = JSON.stringify(calls);
    for (const secret of SECRETS) expect(stored).not.toContain(secret);
    expect(stored).not.toContain('sk-live');
  });
});

async function filesUnder(root: string): Promise<Buffer[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return Promise.all(entries.filter((e) => e.isFile()).map((e) => readFile(join(e.parentPath, e.name))));
}

it('the outbox on disk holds what would be sent: redacted', async () => {
  const outboxDir = join(dir, 'outbox');
  // A server that was there and is gone: its port refuses connections.
  const down = await startTestServer();
  await down.stop();
  const client = createClient({
    project: 'redaction-outbox',
    url: down.url,
    outboxDir,
    handleExit: false,
    maxAttempts: 1,
    redact,
  });
  try {
    const login = client.op(
      async function login(password: string, profile: { ssn: string }) {
        throw new Error(`login ${password} refused (${profile.ssn})`);
      },
      { displayName: (inputs) => `login ${String(inputs.password)}` },
    );
    await withAttributes({ api_key: API_KEY, note: `uses ${PASSWORD}` }, () =>
      login(PASSWORD, { ssn: SSN }).catch(() => undefined),
    );
    const ok = client.op(async function ok() {
      return { token: TOKEN };
    });
    await ok();
    // The server stays down: the flush waits for it until its deadline, then leaves the records in the outbox.
    const result = await client.flush({ timeoutMs: 500 });
    expect(result.spilled).toBe(2);
  } finally {
    await client.shutdown({ timeoutMs: 0 });
  }
  const bytes = Buffer.concat(await filesUnder(outboxDir));
  expect(bytes.includes(Buffer.from('login [REDACTED] refused ([REDACTED])'))).toBe(true);
  for (const secret of SECRETS) expect(bytes.includes(Buffer.from(secret)), secret).toBe(false);
});

it('the evaluation checkpoint and the row calls are redacted like any call', async () => {
  const client = createClient({
    project: 'redaction-eval',
    url: server.url,
    outbox: false,
    handleExit: false,
    redact,
  });
  const checkpoint = join(dir, 'eval.jsonl');
  try {
    const ev = new Evaluation({ name: 'secrets', dataset: [{ q: 1, password: PASSWORD, ssn: SSN }] });
    await ev.evaluate(
      async function model(row: Record<string, unknown>) {
        if (row.q === 1) throw new Error(`cannot log in with ${String(row.password)} / ${String(row.ssn)}`);
        return { token: TOKEN };
      },
      { checkpoint, client, progress: false, print: false },
    );
    await client.flush();
    const text = await readFile(checkpoint, 'utf8');
    expect(text).toContain(`cannot log in with ${R} / ${R}`);
    const rows: Call[] = [];
    for await (const call of client.getCalls({ opName: 'Evaluation.predict_and_score' })) rows.push(call);
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    for (const secret of SECRETS) {
      expect(text).not.toContain(secret);
      expect(stored).not.toContain(secret);
    }
  } finally {
    await client.shutdown();
  }
});
