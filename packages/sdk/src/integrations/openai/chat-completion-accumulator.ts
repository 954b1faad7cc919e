import type { ModelUsage } from '@weft/protocol';
import { type ChunkKind, type StreamAccumulator, usageOf } from '../../calls/index.js';

interface ToolCallParts {
  id: string | undefined;
  name: string | undefined;
  arguments: string;
}

interface ChoiceParts {
  role: string;
  /** `null` until a delta brings some. */
  content: string | null;
  refusal: string | null;
  toolCalls: ToolCallParts[];
  finishReason: string | null;
}

interface ChunkDelta {
  role?: string;
  content?: string | null;
  refusal?: string | null;
  tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
}

interface Chunk {
  id?: string;
  created?: number;
  model?: string;
  choices?: { index: number; delta?: ChunkDelta; finish_reason?: string | null }[];
  usage?: unknown;
}

/**
 * Adds up `chat.completion.chunk`s into the `chat.completion` the same
 * request would have returned unstreamed: per choice the message text,
 * refusal, tool calls (id, name, arguments joined from their pieces) and
 * finish reason; plus the usage chunk. O(1) per chunk whatever its size:
 * text is appended with `+`, which for long strings makes a rope (V8
 * ConsString) without copying; the bytes are copied once, later, when the
 * pool encodes the record. (An `Array#join` in `output()` copied every byte
 * on the caller's turn: 2,000 chunks of 1 KB cost the caller ~25 µs a chunk.)
 *
 * When the wrapper added `include_usage` (`hideUsage`), the caller must see
 * the chunks an unwrapped client would: the usage-only chunk is hidden and
 * the `usage: null` the API then puts on every other chunk is removed.
 */
export class ChatCompletionAccumulator implements StreamAccumulator {
  readonly #hideUsage: boolean;
  #id: string | undefined;
  #created: number | undefined;
  #model: string | undefined;
  readonly #choices: ChoiceParts[] = [];
  #usage: unknown;

  constructor(options: { hideUsage: boolean }) {
    this.#hideUsage = options.hideUsage;
  }

  add(value: unknown): ChunkKind {
    const chunk = value as Chunk;
    if (this.#id === undefined) {
      this.#id = chunk.id;
      this.#created = chunk.created;
      this.#model = chunk.model;
    }
    const choices = chunk.choices ?? [];
    if (chunk.usage !== undefined && chunk.usage !== null) {
      this.#usage = chunk.usage;
      if (this.#hideUsage && choices.length === 0) return 'hidden';
    } else if (this.#hideUsage && chunk.usage === null) {
      delete chunk.usage;
    }
    let kind: ChunkKind = 'other';
    for (const choice of choices) {
      const parts = this.#choice(choice.index);
      const delta = choice.delta;
      if (delta !== undefined) {
        if (typeof delta.role === 'string') parts.role = delta.role;
        if (typeof delta.content === 'string' && delta.content.length > 0) {
          parts.content = parts.content === null ? delta.content : parts.content + delta.content;
          kind = 'output';
        }
        if (typeof delta.refusal === 'string' && delta.refusal.length > 0) {
          parts.refusal = parts.refusal === null ? delta.refusal : parts.refusal + delta.refusal;
          kind = 'output';
        }
        for (const call of delta.tool_calls ?? []) {
          let tool = parts.toolCalls[call.index];
          if (tool === undefined) {
            tool = { id: undefined, name: undefined, arguments: '' };
            parts.toolCalls[call.index] = tool;
          }
          if (call.id) tool.id = call.id;
          if (call.function?.name) tool.name = call.function.name;
          if (call.function?.arguments) tool.arguments += call.function.arguments;
          kind = 'output';
        }
      }
      if (choice.finish_reason) parts.finishReason = choice.finish_reason;
    }
    return kind;
  }

  #choice(index: number): ChoiceParts {
    let parts = this.#choices[index];
    if (parts === undefined) {
      parts = { role: 'assistant', content: null, refusal: null, toolCalls: [], finishReason: null };
      this.#choices[index] = parts;
    }
    return parts;
  }

  output(): unknown {
    const choices = [];
    for (const [index, parts] of this.#choices.entries()) {
      if (parts === undefined) continue;
      const message: Record<string, unknown> = {
        role: parts.role,
        content: parts.content,
        refusal: parts.refusal,
      };
      if (parts.toolCalls.length > 0) {
        message.tool_calls = parts.toolCalls
          .filter((t) => t !== undefined)
          .map((t) => ({
            id: t.id,
            type: 'function',
            function: { name: t.name, arguments: t.arguments },
          }));
      }
      choices.push({ index, message, finish_reason: parts.finishReason });
    }
    const completion: Record<string, unknown> = {
      id: this.#id,
      object: 'chat.completion',
      created: this.#created,
      model: this.#model,
      choices,
    };
    if (this.#usage !== undefined) completion.usage = this.#usage;
    return completion;
  }

  usage(): Record<string, ModelUsage> | undefined {
    return usageOf({ model: this.#model, usage: this.#usage });
  }
}
