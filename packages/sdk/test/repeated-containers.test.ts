import { describe, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import { seededText, useFileServer } from './support/index.js';

const server = useFileServer();

interface Message {
  role: string;
  content: string;
  meta: { turn: number; note: string };
}

async function readInputs(client: weft.WeftClient, opName: string) {
  const calls = await client.getCalls({ opName }).toArray();
  return calls
    .sort((a, b) => (a.attributes.call as number) - (b.attributes.call as number))
    .map((call) => call.inputs);
}

describe('repeated containers (encoded once per content)', () => {
  it('two calls in flight sharing a conversation each record it as it was when they started, while one mutates it', async () => {
    const client = weft.init({
      project: 'repeated-concurrent',
      url: server.url,
      outbox: false,
      handleExit: false,
    });
    const messages: Message[] = [
      { role: 'system', content: seededText(0, 1_500), meta: { turn: 0, note: 'start' } },
      { role: 'user', content: seededText(1, 300), meta: { turn: 0, note: 'ask' } },
    ];
    const tools = [{ name: 'search', schema: { type: 'object', required: ['q'] } }];
    const expected: unknown[] = [];
    let started: () => void = () => {};
    const llm = weft.op(async function chatModel(
      conversation: Message[],
      toolList: unknown[],
      hold: boolean,
    ) {
      void conversation;
      void toolList;
      if (hold) await new Promise<void>((resolve) => (started = resolve));
      return 'reply';
    });
    let call = 0;
    const traced = (hold: boolean) => {
      const n = call++;
      expected[n] = structuredClone({ conversation: messages, toolList: tools, hold });
      return weft.withAttributes({ call: n }, () => llm(messages, tools, hold));
    };
    // The same containers in several calls first: from then on their encodings are reused.
    for (let i = 0; i < 4; i++) await traced(false);
    for (let round = 0; round < 6; round++) {
      const held = traced(true); // in flight, holding the conversation as it is now
      // Mutations at every depth while it is in flight, then a second call on the same containers.
      if (round % 3 === 0)
        messages.push({
          role: 'user',
          content: seededText(10 + round, 200),
          meta: { turn: round, note: 'n' },
        });
      if (round % 3 === 1) (messages[1] as Message).meta.note = `edited ${round}`;
      if (round % 3 === 2) tools[0]?.schema.required.push(`k${round}`);
      await traced(false);
      started();
      await held;
      await traced(false); // unchanged since: the reused encoding
    }
    expect((await client.flush()).failed).toBe(0);
    expect(await readInputs(client, 'chatModel')).toEqual(expected);
  });

  it('a repeated container holding a key the default rules redact is redacted in every call', async () => {
    const client = weft.init({
      project: 'repeated-redacted',
      url: server.url,
      outbox: false,
      handleExit: false,
    });
    const tools = [{ name: 'search', auth: { apiKey: 'sk-live-123', region: 'eu' } }];
    const use = weft.op(function useTools(toolList: unknown[]) {
      void toolList;
      return 'ok';
    });
    for (let n = 0; n < 4; n++) weft.withAttributes({ call: n }, () => use(tools));
    expect((await client.flush()).failed).toBe(0);
    const inputs = await readInputs(client, 'useTools');
    expect(inputs).toHaveLength(4);
    for (const input of inputs) {
      expect(JSON.stringify(input)).not.toContain('sk-live-123');
      expect(input).toMatchObject({ toolList: [{ name: 'search', auth: { region: 'eu' } }] });
    }
  });
});
