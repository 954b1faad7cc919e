import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import { replayOutbox } from '../src/outbox-admin/index.js';
import { startRequestLogProxy } from './eval/fixtures/request-log-proxy.js';
import { startTestServer } from '@weft/test-server';
import { seededText, useFileServer } from './support/index.js';

const server = useFileServer();

function init(project: string, url: string, extra: Partial<weft.WeftOptions> = {}) {
  return weft.init({ project, url, outbox: false, handleExit: false, ...extra });
}

/** Every call of the client's project, oldest first, as the read API returns them. */
async function readAll(client: weft.WeftClient, opName: string) {
  const calls = await client.getCalls({ opName }).toArray();
  return calls.sort(
    (a, b) => a.startedAt - b.startedAt || (a.attributes.turn as number) - (b.attributes.turn as number),
  );
}

describe('values sent once', () => {
  it('a chat loop sends each message once and every call reads back its whole history', async () => {
    const proxy = await startRequestLogProxy(server.url);
    server.onStop(() => proxy.close());
    const client = init('dedup-chat', proxy.url);
    const chat = weft.op(function chatTurn(messages: { role: string; content: string }[], turn: number) {
      void messages;
      return { role: 'assistant', content: seededText(turn, 1_500) };
    });
    // (Local names differ from the op's parameter names: the test transform renames a parameter that shadows one.)
    const history: { role: string; content: string }[] = [{ role: 'system', content: seededText(-1, 2_000) }];
    const expected: unknown[] = [];
    for (let turn = 0; turn < 20; turn++) {
      history.push({ role: 'user', content: seededText(1_000 + turn, 300) });
      expected.push(structuredClone(history));
      weft.withAttributes({ turn }, () => history.push(chat(history, turn)));
      // The very array passed in is mutated after the call: the trace keeps the value at the call.
    }
    expect((await client.flush()).failed).toBe(0);

    const calls = await readAll(client, 'chatTurn');
    expect(calls).toHaveLength(20);
    calls.forEach((call, turn) => {
      expect(JSON.stringify(call.inputs.messages)).toBe(JSON.stringify(expected[turn]));
      expect(call.output).toEqual({ role: 'assistant', content: seededText(turn, 1_500) });
    });
    const unique = JSON.stringify(history).length;
    const posted = proxy.requests.filter((r) => r.method === 'POST').reduce((sum, r) => sum + r.bytes, 0);
    // Whole histories would be ~10× the unique bytes here; sent once, a little over 1×.
    expect(posted).toBeLessThan(1.5 * unique);
    expect(client.diagnostics().dedup?.valuesSent).toBeGreaterThan(0);
  });

  it('any sequence of traced values reads back byte-identical', async () => {
    const client = init('dedup-property', server.url, { dedupThresholdBytes: 64 });
    const echo = weft.op(function echoValue(value: unknown, parts: unknown[]) {
      void parts;
      return value;
    });
    let run = 0;
    const big = fc.string({ minLength: 0, maxLength: 400 });
    const valueArb = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.array(fc.record({ role: fc.constantFrom('user', 'assistant'), content: big }), { maxLength: 6 }),
      big,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(valueArb, { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
        async (pool, picks) => {
          run++;
          const sent: string[] = [];
          const prefix: unknown[] = [];
          for (const [turn, pick] of picks.entries()) {
            const value = pool[pick % pool.length];
            prefix.push(value);
            weft.withAttributes({ run, turn }, () => echo(value, prefix));
            sent.push(JSON.stringify({ value, parts: prefix }));
          }
          expect((await client.flush()).failed).toBe(0);
          const calls = (await client.getCalls({ opName: 'echoValue', attributes: { run } }).toArray()).sort(
            (a, b) => (a.attributes.turn as number) - (b.attributes.turn as number),
          );
          expect(calls.map((call) => JSON.stringify(call.inputs))).toEqual(sent);
          expect(calls.map((call) => JSON.stringify(call.output))).toEqual(
            picks.map((pick) => JSON.stringify(pool[pick % pool.length])),
          );
        },
      ),
      { numRuns: 25 },
    );
  });

  it('after the server restarts with its database wiped, values the client believes delivered are sent again', async () => {
    const wiped = await startTestServer({ register: (cleanup) => server.onStop(cleanup) });
    const client = init('dedup-wiped', wiped.url);
    const ask = weft.op(function askWiped(system: string, question: string) {
      void system;
      return `answer to ${question}`;
    });
    const prompt = seededText(7, 4_000);
    weft.withAttributes({ turn: 0 }, () => ask(prompt, 'first'));
    expect((await client.flush()).failed).toBe(0);

    await wiped.stop();
    await rm(wiped.dbPath, { force: true });
    await rm(`${wiped.dbPath}-wal`, { force: true });
    await rm(`${wiped.dbPath}-shm`, { force: true });
    await wiped.start();

    // The client still believes the system prompt is on the server.
    weft.withAttributes({ turn: 1 }, () => ask(prompt, 'second'));
    expect((await client.flush()).failed).toBe(0);
    const calls = await readAll(client, 'askWiped');
    expect(calls.map((call) => call.inputs)).toEqual([{ system: prompt, question: 'second' }]);
  });

  it('after a restart that keeps the data, values are not sent again and still resolve', async () => {
    const proxy = await startRequestLogProxy(server.url);
    server.onStop(() => proxy.close());
    const client = init('dedup-restart', proxy.url);
    const ask = weft.op(function askAgain(system: string, question: string) {
      void system;
      return question.length;
    });
    const prompt = seededText(8, 4_000);
    weft.withAttributes({ turn: 0 }, () => ask(prompt, 'first'));
    expect((await client.flush()).failed).toBe(0);
    await server.restart();
    const before = proxy.requests.reduce((sum, r) => sum + r.bytes, 0);
    weft.withAttributes({ turn: 1 }, () => ask(prompt, 'second'));
    expect((await client.flush()).failed).toBe(0);
    expect(proxy.requests.reduce((sum, r) => sum + r.bytes, 0) - before).toBeLessThan(1_000);
    const calls = await readAll(client, 'askAgain');
    expect(calls.map((call) => call.inputs.system)).toEqual([prompt, prompt]);
  });

  it('values spilled to the outbox with their calls while the server is down resolve after replay', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weft-dedup-outbox-'));
    server.onStop(() => rm(dir, { recursive: true, force: true }));
    const down = await startTestServer({ register: (cleanup) => server.onStop(cleanup) });
    const client = init('dedup-outbox', down.url, { outbox: true, outboxDir: dir, maxAttempts: 1 });
    const summarize = weft.op(function summarizeDoc(doc: string, round: number) {
      return `${round}:${doc.length}`;
    });
    const body = seededText(9, 6_000);
    weft.withAttributes({ turn: 0 }, () => summarize(body, 0));
    expect((await client.flush()).failed).toBe(0);
    await down.stop();
    // The client believes the document is delivered: these records carry markers only, and go to the outbox.
    weft.withAttributes({ turn: 1 }, () => summarize(body, 1));
    weft.withAttributes({ turn: 2 }, () => summarize(`${body}!`, 2));
    // The server stays down: the flush waits for it until its deadline, then leaves the records in the outbox.
    const flushed = await client.flush({ timeoutMs: 500 });
    expect(flushed.failed).toBe(0);
    expect(flushed.spilled).toBeGreaterThan(0);
    await client.shutdown({ timeoutMs: 0 });
    await down.start();
    await replayOutbox({ dir, url: down.url, onWarning: () => {} });
    const reader = init('dedup-outbox', down.url);
    const calls = await readAll(reader, 'summarizeDoc');
    expect(calls.map((call) => call.inputs.doc)).toEqual([body, body, `${body}!`]);
  });
});
