import type { Part } from './message.js';
import { isRecord, parseJsonText, str } from './values.js';

/**
 * A message's content as parts: a string, one part object, or a list of
 * them, in any of the part shapes the providers and conventions use (they
 * are told apart by `type`; see each case). Never throws: a part it does
 * not know becomes a `data` part, shown as JSON.
 */
export function partsOf(content: unknown): Part[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ kind: 'text', text: content }];
  if (Array.isArray(content)) return content.flatMap(partOf);
  if (isRecord(content)) return partOf(content);
  return [{ kind: 'text', text: String(content) }];
}

function imageUrl(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isRecord(value)) return str(value.url);
  return undefined;
}

/** Anthropic's `source` (`base64` with `media_type`, or `url`) as a URL to show. */
function sourceUrl(source: unknown): { url: string | undefined; mediaType: string | undefined } {
  if (!isRecord(source)) return { url: undefined, mediaType: undefined };
  const mediaType = str(source.media_type);
  if (source.type === 'base64' && typeof source.data === 'string') {
    return { url: `data:${mediaType ?? 'application/octet-stream'};base64,${source.data}`, mediaType };
  }
  return { url: str(source.url), mediaType };
}

/** An AI SDK tool result's `output` (`{ type: 'text' | 'json', value }`) or older `result`. */
function toolOutput(value: unknown): Part[] {
  if (isRecord(value) && (value.type === 'text' || value.type === 'json') && 'value' in value) {
    return value.type === 'text' ? partsOf(str(value.value) ?? '') : [{ kind: 'data', value: value.value }];
  }
  const parsed = parseJsonText(value);
  return typeof parsed === 'string' ? partsOf(parsed) : [{ kind: 'data', value: parsed }];
}

function partOf(part: unknown): Part[] {
  if (typeof part === 'string') return part === '' ? [] : [{ kind: 'text', text: part }];
  if (!isRecord(part)) return [{ kind: 'data', value: part }];
  switch (part.type) {
    // OpenAI chat and Anthropic `text`, Responses `input_text`/`output_text`; GenAI parts carry `content`.
    case 'text':
    case 'input_text':
    case 'output_text': {
      const text = str(part.text) ?? str(part.content);
      return text === undefined ? [{ kind: 'data', value: part }] : [{ kind: 'text', text }];
    }
    case 'refusal':
      return [{ kind: 'refusal', text: str(part.refusal) ?? str(part.text) ?? '' }];
    // OpenAI chat `image_url: { url }`, Responses `input_image: { image_url }`.
    case 'image_url':
    case 'input_image':
      return [{ kind: 'image', url: imageUrl(part.image_url) ?? str(part.file_id) }];
    // Anthropic `image: { source }`; AI SDK `image: { image, mediaType }`.
    case 'image': {
      if (part.source !== undefined) return [{ kind: 'image', ...sourceUrl(part.source) }];
      const mediaType = str(part.mediaType) ?? str(part.mimeType);
      const image = str(part.image);
      const url =
        image === undefined || /^(https?|data):/.test(image)
          ? image
          : `data:${mediaType ?? 'image/png'};base64,${image}`;
      return [{ kind: 'image', url, mediaType }];
    }
    case 'input_audio':
      return [
        { kind: 'audio', format: isRecord(part.input_audio) ? str(part.input_audio.format) : undefined },
      ];
    case 'file':
    case 'input_file':
    case 'document': {
      const file = isRecord(part.file) ? part.file : part;
      return [
        {
          kind: 'file',
          name: str(file.filename) ?? str(file.title) ?? str(file.name),
          mediaType: str(file.mediaType) ?? str(file.mime_type) ?? str(part.mime_type),
        },
      ];
    }
    // Anthropic thinking; AI SDK and GenAI `reasoning` (`text` / `content`).
    case 'thinking':
      return [{ kind: 'thinking', text: str(part.thinking) ?? '' }];
    case 'redacted_thinking':
      return [{ kind: 'thinking', text: '', redacted: true }];
    case 'reasoning': {
      const summary = Array.isArray(part.summary)
        ? part.summary.map((s) => (isRecord(s) ? (str(s.text) ?? '') : '')).join('\n')
        : undefined;
      return [{ kind: 'thinking', text: str(part.text) ?? str(part.content) ?? summary ?? '' }];
    }
    // Anthropic `tool_use`, AI SDK `tool-call`, GenAI `tool_call`, Responses `function_call`.
    case 'tool_use':
      return [{ kind: 'tool-call', id: str(part.id), name: str(part.name) ?? '?', arguments: part.input }];
    case 'tool-call':
      return [
        {
          kind: 'tool-call',
          id: str(part.toolCallId),
          name: str(part.toolName) ?? '?',
          arguments: parseJsonText(part.input ?? part.args),
        },
      ];
    case 'tool_call':
    case 'function_call':
      return [
        {
          kind: 'tool-call',
          id: str(part.call_id) ?? str(part.id),
          name: str(part.name) ?? '?',
          arguments: parseJsonText(part.arguments),
        },
      ];
    // Anthropic `tool_result`, AI SDK `tool-result`, GenAI `tool_call_response`, Responses `function_call_output`.
    case 'tool_result':
      return [
        {
          kind: 'tool-result',
          id: str(part.tool_use_id),
          content: partsOf(part.content),
          ...(part.is_error === true ? { isError: true } : {}),
        },
      ];
    case 'tool-result':
      return [
        {
          kind: 'tool-result',
          id: str(part.toolCallId),
          name: str(part.toolName),
          content: toolOutput(part.output ?? part.result),
        },
      ];
    case 'tool_call_response':
    case 'function_call_output':
      return [
        {
          kind: 'tool-result',
          id: str(part.call_id) ?? str(part.id),
          content: toolOutput(part.output ?? part.response),
        },
      ];
    default: {
      // OpenInference `message_content`; a part with just text.
      if (isRecord(part.message_content)) return partOf(part.message_content);
      const text = str(part.text);
      return text !== undefined && Object.keys(part).length <= 2
        ? [{ kind: 'text', text }]
        : [{ kind: 'data', value: part }];
    }
  }
}
