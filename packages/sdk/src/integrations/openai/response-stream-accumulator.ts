import type { ModelUsage } from '@weft/protocol';
import { type ChunkKind, type StreamAccumulator, usageOf } from '../../calls/index.js';

interface ResponseEvent {
  type?: string;
  delta?: string;
  output_index?: number;
  item?: unknown;
  response?: { id?: string; model?: string; status?: string; usage?: unknown };
}

/** Events that end a response; each carries the whole response (output and usage). */
const FINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * Adds up Responses API stream events. The final event
 * (`response.completed`, `.incomplete`, `.failed`) carries the whole
 * response, which is recorded as it is; until then (a stream cut off or
 * abandoned) the output is what was read: the text so far and the output
 * items already done. Any `*.delta` event is output (time to first token).
 */
export class ResponseStreamAccumulator implements StreamAccumulator {
  #response: ResponseEvent['response'];
  #final = false;
  /** Appended with `+` (a rope, no copy on the caller's turn; see ChatCompletionAccumulator). */
  #text = '';
  readonly #items: unknown[] = [];

  add(value: unknown): ChunkKind {
    const event = value as ResponseEvent;
    const type = event.type ?? '';
    if (
      event.response !== undefined &&
      (type === 'response.created' || type === 'response.in_progress' || FINAL.has(type))
    ) {
      this.#response = event.response;
      this.#final = FINAL.has(type);
      return 'other';
    }
    if (type === 'response.output_text.delta' && typeof event.delta === 'string') {
      this.#text += event.delta;
      return 'output';
    }
    if (type === 'response.output_item.done' && typeof event.output_index === 'number') {
      this.#items[event.output_index] = event.item;
      return 'other';
    }
    return type.endsWith('.delta') ? 'output' : 'other';
  }

  output(): unknown {
    if (this.#final) return this.#response;
    const r = this.#response;
    return {
      id: r?.id,
      object: 'response',
      model: r?.model,
      status: r?.status,
      output: this.#items.filter((i) => i !== undefined),
      output_text: this.#text,
    };
  }

  usage(): Record<string, ModelUsage> | undefined {
    return this.#final ? usageOf(this.#response) : undefined;
  }
}
