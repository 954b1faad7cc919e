import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatCall } from './chat-call.test-support.js';
import { turnMessages } from './turn-messages.js';

type Turn = { question: string; answer: string };

const call = (inputs: Record<string, unknown>, output: unknown) => chatCall(inputs, output);

const openaiHistory = (earlier: Turn[]) =>
  earlier.flatMap((t) => [
    { role: 'user', content: t.question },
    { role: 'assistant', content: t.answer },
  ]);
const anthropicHistory = (earlier: Turn[]) =>
  earlier.flatMap((t) => [
    { role: 'user', content: [{ type: 'text', text: t.question }] },
    { role: 'assistant', content: [{ type: 'text', text: t.answer }] },
  ]);

/**
 * How chat handlers record a turn's inputs (the SDK names inputs after the
 * parameters; a lone destructured object is recorded as itself).
 */
const SHAPES: Record<string, (earlier: Turn[], question: string) => Record<string, unknown>> = {
  '(messages)': (earlier, q) => ({ messages: [...openaiHistory(earlier), { role: 'user', content: q }] }),
  '(message, history)': (earlier, q) => ({ message: q, history: openaiHistory(earlier) }),
  '(history, message)': (earlier, q) => ({ history: openaiHistory(earlier), message: q }),
  '(message: { role, content }, history)': (earlier, q) => ({
    message: { role: 'user', content: q },
    history: openaiHistory(earlier),
  }),
  '({ messages })': (earlier, q) => ({
    messages: [...openaiHistory(earlier), { role: 'user', content: [{ type: 'text', text: q }] }],
  }),
  'OpenAI request (request)': (earlier, q) => ({
    request: {
      model: 'gpt-4o-mini',
      temperature: 0.2,
      messages: [
        { role: 'system', content: 'Be brief.' },
        ...openaiHistory(earlier),
        { role: 'user', content: q },
      ],
    },
  }),
  'OpenAI request ({ model, messages })': (earlier, q) => ({
    model: 'gpt-4o-mini',
    messages: [
      { role: 'developer', content: 'Be brief.' },
      ...openaiHistory(earlier),
      { role: 'user', content: q },
    ],
  }),
  'Anthropic request ({ model, system, messages })': (earlier, q) => ({
    model: 'claude-sonnet-4',
    system: 'Be brief.',
    max_tokens: 256,
    messages: [...anthropicHistory(earlier), { role: 'user', content: [{ type: 'text', text: q }] }],
  }),
  'Anthropic request (params)': (earlier, q) => ({
    params: {
      model: 'claude-sonnet-4',
      max_tokens: 256,
      messages: [...anthropicHistory(earlier), { role: 'user', content: q }],
    },
  }),
};

const text = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== '');
const turns = fc.array(fc.record({ question: text, answer: text }), { minLength: 1, maxLength: 6 });

describe('turnMessages', () => {
  for (const [shape, inputsOf] of Object.entries(SHAPES)) {
    it(`shows each turn's own question above its answer for handlers shaped ${shape}`, () => {
      fc.assert(
        fc.property(turns, (conversation) => {
          conversation.forEach((turn, i) => {
            const messages = turnMessages(
              call(inputsOf(conversation.slice(0, i), turn.question), turn.answer),
            );
            expect(messages).toEqual([
              { role: 'user', parts: [{ kind: 'text', text: turn.question }] },
              { role: 'assistant', parts: [{ kind: 'text', text: turn.answer }] },
            ]);
          });
        }),
      );
    });
  }

  it('shows a failed turn’s question and its error', () => {
    const failed = { ...call({ message: 'Hi?', history: [] }, null), status: 'error' as const };
    failed.exception = { name: 'RateLimitError', message: '429' };
    expect(turnMessages(failed)).toEqual([
      { role: 'user', parts: [{ kind: 'text', text: 'Hi?' }] },
      { role: 'error', parts: [{ kind: 'text', text: 'RateLimitError: 429' }] },
    ]);
  });

  it('keeps a turn’s images and the tool calls of its reply as parts', () => {
    const image = { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } };
    const messages = turnMessages(
      call(
        {
          request: {
            model: 'gpt-4o',
            messages: [{ role: 'user', content: [{ type: 'text', text: 'Here?' }, image] }],
          },
        },
        {
          choices: [
            {
              message: {
                role: 'assistant',
                content: null,
                tool_calls: [
                  { id: 'c1', type: 'function', function: { name: 'where', arguments: '{"x":1}' } },
                ],
              },
            },
          ],
        },
      ),
    );
    expect(messages).toEqual([
      {
        role: 'user',
        parts: [
          { kind: 'text', text: 'Here?' },
          { kind: 'image', url: 'data:image/png;base64,AAAA' },
        ],
      },
      { role: 'assistant', parts: [{ kind: 'tool-call', id: 'c1', name: 'where', arguments: { x: 1 } }] },
    ]);
  });

  it('reads the text a handler’s own reply object keeps, and shows any other reply as a value', () => {
    expect(turnMessages(call({ question: 'Q' }, { answer: 'A', sources: [1] }))).toEqual([
      { role: 'user', parts: [{ kind: 'text', text: 'Q' }] },
      { role: 'assistant', parts: [{ kind: 'text', text: 'A' }] },
    ]);
    expect(turnMessages(call({ k: 3 }, { score: 0.5 }))).toEqual([
      { role: 'user', parts: [{ kind: 'data', value: { k: 3 } }] },
      { role: 'assistant', parts: [{ kind: 'data', value: { score: 0.5 } }] },
    ]);
  });

  it('never throws, whatever a turn’s inputs and output hold', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue(), (inputs, output) => {
        turnMessages(call(inputs, output));
      }),
    );
  });
});
