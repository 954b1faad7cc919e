import type { ModelUsage } from '@weft/protocol';
import { type ChunkKind, type StreamAccumulator, usageOf } from '../../calls/index.js';

interface Block {
  /** The block as `content_block_start` gave it (text empty, tool input `{}`). */
  start: Record<string, unknown>;
  /** Text, thinking or tool-input JSON from `content_block_delta`, appended with `+` (a rope: no copy on the caller's turn). */
  text: string;
  signature: string | undefined;
}

interface MessageEvent {
  type?: string;
  index?: number;
  message?: Record<string, unknown>;
  content_block?: Record<string, unknown>;
  delta?: {
    type?: string;
    text?: string;
    partial_json?: string;
    thinking?: string;
    signature?: string;
    stop_reason?: unknown;
    stop_sequence?: unknown;
  };
  usage?: Record<string, unknown>;
}

/** A tool's input as the unstreamed message has it: the parsed JSON, or the raw text when it does not parse (a cut stream). */
function toolInput(json: string): unknown {
  if (json.length === 0) return {};
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

/**
 * Adds up Anthropic Messages stream events into the `message` the same
 * request would have returned unstreamed. The model, id and input usage
 * (input, cache read and cache creation tokens) come from `message_start`;
 * the stop reason and output tokens from `message_delta` (its usage counts
 * are cumulative and override); text, thinking and tool-use blocks are
 * assembled from their deltas (`input_json_delta` pieces joined and parsed
 * once, at the end). O(1) per event whatever its size.
 */
export class MessageAccumulator implements StreamAccumulator {
  #message: Record<string, unknown> | undefined;
  #usage: Record<string, unknown> = {};
  readonly #blocks: Block[] = [];
  #stopReason: unknown = null;
  #stopSequence: unknown = null;

  add(value: unknown): ChunkKind {
    const event = value as MessageEvent;
    switch (event.type) {
      case 'message_start':
        this.#message = event.message;
        this.#usage = { ...(event.message?.usage as Record<string, unknown> | undefined) };
        return 'other';
      case 'content_block_start':
        if (typeof event.index === 'number')
          this.#blocks[event.index] = { start: event.content_block ?? {}, text: '', signature: undefined };
        return 'other';
      case 'content_block_delta': {
        const block = typeof event.index === 'number' ? this.#blocks[event.index] : undefined;
        const delta = event.delta;
        if (block === undefined || delta === undefined) return 'other';
        const piece = delta.text ?? delta.partial_json ?? delta.thinking;
        if (typeof piece === 'string') block.text += piece;
        if (typeof delta.signature === 'string') block.signature = delta.signature;
        return 'output';
      }
      case 'message_delta':
        if (event.delta?.stop_reason !== undefined) this.#stopReason = event.delta.stop_reason;
        if (event.delta?.stop_sequence !== undefined) this.#stopSequence = event.delta.stop_sequence;
        for (const [key, count] of Object.entries(event.usage ?? {}))
          if (count !== null && count !== undefined) this.#usage[key] = count;
        return 'other';
      default:
        return 'other';
    }
  }

  output(): unknown {
    const content = [];
    for (const block of this.#blocks) {
      if (block === undefined) continue;
      const joined = block.text;
      switch (block.start.type) {
        case 'text':
          content.push({
            ...block.start,
            text: `${(block.start.text as string | undefined) ?? ''}${joined}`,
          });
          break;
        case 'tool_use':
        case 'server_tool_use':
          content.push({ ...block.start, input: toolInput(joined) });
          break;
        case 'thinking':
          content.push({
            ...block.start,
            thinking: joined,
            ...(block.signature === undefined ? {} : { signature: block.signature }),
          });
          break;
        default:
          content.push(block.start);
      }
    }
    const m = this.#message;
    return {
      id: m?.id,
      type: 'message',
      role: m?.role ?? 'assistant',
      model: m?.model,
      content,
      stop_reason: this.#stopReason,
      stop_sequence: this.#stopSequence,
      usage: this.#usage,
    };
  }

  usage(): Record<string, ModelUsage> | undefined {
    return this.#message === undefined
      ? undefined
      : usageOf({ model: this.#message.model, usage: this.#usage });
  }
}
