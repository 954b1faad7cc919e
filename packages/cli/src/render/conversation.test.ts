import type { Call } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { turnMessages } from './conversation.js';

const turn = (inputs: Record<string, unknown>, output: unknown, extra: Partial<Call> = {}): Call => ({
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
  ...extra,
});

describe('turnMessages (what `weft mcp` get_session prints of a turn)', () => {
  it('reads the new message of a (message, history) handler, then its reply', () => {
    expect(turnMessages(turn({ message: 'Where is my order?', history: [] }, 'It ships tomorrow.'))).toEqual([
      { role: 'user', text: 'Where is my order?' },
      { role: 'assistant', text: 'It ships tomorrow.' },
    ]);
  });

  it('reads a turn given one message with content parts, and a handler reply kept under `answer`', () => {
    const message = {
      role: 'user',
      content: [
        { type: 'text', text: 'What is on this label?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    };
    expect(turnMessages(turn({ message }, { answer: 'A shipping address.' }))).toEqual([
      { role: 'user', text: 'What is on this label?\n[image]' },
      { role: 'assistant', text: 'A shipping address.' },
    ]);
  });

  it('reads the last user message of a request given as one input, and a tool call in the reply', () => {
    const request = {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Look up order 7.' },
      ],
    };
    const output = {
      choices: [
        {
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"id":7}' } }],
          },
        },
      ],
    };
    expect(turnMessages(turn({ request }, output))).toEqual([
      { role: 'user', text: 'Look up order 7.' },
      { role: 'assistant', text: '[tool call lookup({"id":7})]' },
    ]);
  });

  it('ends a failed turn with its error, and a running one with its message only', () => {
    const failed = turn({ message: 'Hi' }, null, {
      status: 'error',
      exception: { type: 'Error', name: 'RateLimitError', message: 'slow down' },
    });
    expect(turnMessages(failed)).toEqual([
      { role: 'user', text: 'Hi' },
      { role: 'error', text: 'RateLimitError: slow down' },
    ]);
    expect(turnMessages(turn({ message: 'Hi' }, null, { status: 'running', endedAt: null }))).toEqual([
      { role: 'user', text: 'Hi' },
    ]);
  });
});
