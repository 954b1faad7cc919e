import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatCall } from './chat-call.test-support.js';
import { conversationOf } from './conversation.js';

const call = (inputs: Record<string, unknown>, output: unknown) =>
  chatCall(inputs, output, { opName: 'llm' });

describe('conversationOf', () => {
  it('never throws, whatever the inputs and output hold', () => {
    const role = fc.constantFrom('user', 'assistant', 'tool', 'system', 7, null);
    const part = fc.oneof(
      fc.jsonValue(),
      fc.record({
        type: fc.constantFrom(
          'text',
          'image',
          'tool_use',
          'tool_result',
          'tool-call',
          'function_call',
          'reasoning',
        ),
        text: fc.jsonValue(),
        input: fc.jsonValue(),
        content: fc.jsonValue(),
      }),
    );
    const message = fc.record({
      role,
      content: fc.oneof(fc.string(), fc.array(part)),
      tool_calls: fc.jsonValue(),
    });
    fc.assert(
      fc.property(fc.array(message), fc.jsonValue(), fc.jsonValue(), (messages, system, output) => {
        conversationOf(call({ messages, system }, output));
        conversationOf(call({ input: messages, instructions: system }, { output: messages }));
      }),
    );
  });

  it('reads nothing from a call whose inputs hold no messages', () => {
    expect(conversationOf(call({ query: 'q', k: 3 }, ['doc']))).toBeUndefined();
  });

  it('reads a request given as one argument, and keeps its sampling parameters', () => {
    const c = conversationOf(
      call(
        { request: { model: 'gpt-4o', temperature: 0.2, messages: [{ role: 'user', content: 'Hi' }] } },
        'Hello',
      ),
    );
    expect(c?.input).toEqual([{ role: 'user', parts: [{ kind: 'text', text: 'Hi' }] }]);
    expect(c?.output).toEqual([{ role: 'assistant', parts: [{ kind: 'text', text: 'Hello' }] }]);
    expect(c?.model).toBe('gpt-4o');
    expect(c?.parameters).toEqual({ temperature: 0.2 });
  });
});
