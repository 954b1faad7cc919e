import type { ProviderChunk } from './provider-chunk.js';

/** A streamed reply added up: its text, its tool calls (arguments as text), usage and finish reason. */
export class ReplyAssembler {
  text = '';
  readonly toolCalls: { id: string; name: string; arguments: string }[] = [];
  usage: Extract<ProviderChunk, { type: 'usage' }> | undefined;
  finishReason: string | undefined;

  add(chunk: ProviderChunk): void {
    switch (chunk.type) {
      case 'text':
        this.text += chunk.text;
        break;
      case 'tool-call': {
        const call = this.toolCalls[chunk.index] ?? { id: '', name: '', arguments: '' };
        this.toolCalls[chunk.index] = call;
        if (chunk.id) call.id = chunk.id;
        if (chunk.name) call.name = chunk.name;
        call.arguments += chunk.arguments;
        break;
      }
      case 'usage':
        this.usage = chunk;
        break;
      case 'finish':
        this.finishReason = chunk.reason ?? this.finishReason;
        break;
    }
  }

  /** The reply in the provider's own shape, as the SDK's wrappers record it, so the UI reads it like any call. */
  output(kind: 'openai' | 'anthropic', model: string): Record<string, unknown> {
    const calls = this.toolCalls.filter((c) => c !== undefined);
    if (kind === 'anthropic') {
      const content: Record<string, unknown>[] = [];
      if (this.text !== '') content.push({ type: 'text', text: this.text });
      for (const c of calls)
        content.push({ type: 'tool_use', id: c.id, name: c.name, input: parsed(c.arguments) });
      return { type: 'message', role: 'assistant', model, content, stop_reason: this.finishReason ?? null };
    }
    return {
      object: 'chat.completion',
      model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: this.text === '' && calls.length > 0 ? null : this.text,
            ...(calls.length > 0
              ? {
                  tool_calls: calls.map((c) => ({
                    id: c.id,
                    type: 'function',
                    function: { name: c.name, arguments: c.arguments },
                  })),
                }
              : {}),
          },
          finish_reason: this.finishReason ?? null,
        },
      ],
    };
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
