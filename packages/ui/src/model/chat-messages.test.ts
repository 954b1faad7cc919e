import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Call } from '../api/index.js';
import { turnMessages } from './chat-messages.js';

type Turn = { question: string; answer: string };

function call(inputs: Record<string, unknown>, output: unknown): Call {
  return {
    project: 'p',
    id: '0190a5f0-0000-7000-8000-000000000001',
    traceId: '0190a5f0-0000-7000-8000-000000000001',
    parentId: null,
    opName: 'chat',
    displayName: null,
    startedAt: 1,
    endedAt: 2,
    status: 'success',
    inputs,
    output,
    exception: null,
    summary: null,
    attributes: {},
  };
}

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
              { role: 'user', text: turn.question },
              { role: 'assistant', text: turn.answer },
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
      { role: 'user', text: 'Hi?' },
      { role: 'error', text: 'RateLimitError: 429' },
    ]);
  });
});
