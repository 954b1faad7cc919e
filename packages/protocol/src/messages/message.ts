/**
 * A conversation message in one shape, whatever the provider or convention
 * that recorded it (OpenAI chat completions and Responses, Anthropic
 * messages, the OpenTelemetry GenAI conventions, OpenInference, the AI SDK):
 * the web UI's views and the CLI render this, never the provider's JSON.
 */
export type Part =
  | { kind: 'text'; text: string }
  /** `url` is a link or a `data:` URL. */
  | { kind: 'image'; url: string | undefined; mediaType?: string | undefined }
  | { kind: 'audio'; format?: string | undefined; transcript?: string | undefined }
  | { kind: 'file'; name?: string | undefined; mediaType?: string | undefined }
  /** A model's reasoning (Anthropic thinking, OpenAI reasoning summaries); `redacted` when withheld. */
  | { kind: 'thinking'; text: string; redacted?: boolean }
  | { kind: 'refusal'; text: string }
  /** `arguments` parsed from JSON text when it is JSON; `rawArguments` keeps text that is not. */
  | { kind: 'tool-call'; id: string | undefined; name: string; arguments: unknown }
  | {
      kind: 'tool-result';
      id: string | undefined;
      name?: string | undefined;
      content: Part[];
      isError?: boolean;
    }
  /** A part the readers do not know: shown as JSON. */
  | { kind: 'data'; value: unknown };

export interface Message {
  /** `system`, `developer`, `user`, `assistant`, `tool`, or what the recording said. */
  role: string;
  name?: string | undefined;
  parts: Part[];
}

/** A tool the model was offered. */
export interface ToolDefinition {
  name: string;
  description?: string | undefined;
  /** JSON Schema of the arguments. */
  parameters?: unknown;
}

/** Which wire format a conversation was read from. */
export type ConversationFormat =
  | 'openai-chat'
  | 'openai-responses'
  | 'anthropic'
  | 'genai'
  | 'ai-sdk'
  | 'chat';

/** A model call read as a conversation: what was sent, what came back, and how. */
export interface Conversation {
  format: ConversationFormat;
  /** System instructions first, then the messages sent. */
  input: Message[];
  /** The model's reply (empty while running or when it failed). */
  output: Message[];
  tools: ToolDefinition[];
  model: string | undefined;
  /** Sampling parameters as sent (`temperature`, `max_tokens`, …), for the playground. */
  parameters: Record<string, unknown>;
}

/**
 * What the readers take of a call: a structural view of the protocol's
 * `Call` (every `Call` is one), so this subpath loads no schema.
 */
export interface MessageCall {
  readonly opName: string;
  readonly inputs: unknown;
  readonly output: unknown;
  readonly attributes?: Readonly<Record<string, unknown>> | null | undefined;
  readonly summary?:
    | { readonly usage?: Readonly<Record<string, unknown>> | null | undefined }
    | null
    | undefined;
  readonly exception?: { readonly name: string; readonly message: string } | null | undefined;
  readonly endedAt: number | null;
}
