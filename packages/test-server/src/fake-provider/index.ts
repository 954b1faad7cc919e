/**
 * A fake LLM provider for tests: HTTP on 127.0.0.1 (port 0) speaking the
 * OpenAI (chat completions, responses, embeddings) and Anthropic (messages)
 * wire formats, JSON and server-sent events, so the REAL `openai` and
 * `@anthropic-ai/sdk` packages talk to it through `baseURL`.
 *
 * ```ts
 * const provider = await startFakeProvider();
 * onTestFinished(() => provider.close());
 * const openai = new OpenAI({ apiKey: 'test', baseURL: `${provider.url}/v1`, maxRetries: 0 });
 * const anthropic = new Anthropic({ apiKey: 'test', baseURL: provider.url, maxRetries: 0 });
 *
 * provider.enqueue({ kind: 'completion', completion: { text: 'Hi', usage: { inputTokens: 10, outputTokens: 2, cachedInputTokens: 4 } } });
 * await openai.chat.completions.create({ model: 'gpt-4o', messages: [...] }); // or stream: true
 * provider.requests[0].body; // the JSON the client sent
 * ```
 *
 * - Replies are queued with `enqueue(...)` and used in order by the next
 *   requests to ANY endpoint; with an empty queue each request gets the
 *   default completion ("Hello from the fake provider.", 12 in / 7 out).
 * - `{ kind: 'completion', completion }` is rendered in the endpoint's format:
 *   text, tool calls (arguments streamed in pieces), refusal, finish reason,
 *   usage (cached, cache-write, reasoning tokens), streamed when the request
 *   has `stream: true`; chat completions add the usage chunk only when the
 *   request asked `stream_options.include_usage`. `cutAfterEvents: n` writes
 *   n events then destroys the connection.
 * - `openaiError(status, …)`, `anthropicError(status, …)`, `rateLimited(…)`
 *   (429 with `retry-after`) build error replies; `{ kind: 'json' }` sends any
 *   body (huge, deeply nested); `{ kind: 'sse' }` sends given events;
 *   `{ kind: 'raw' }` sends exact bytes (malformed SSE).
 * - The renderers (`chatCompletionBody`, `responseEvents`, …) are exported
 *   for tests that want the expected wire value.
 * - Clients retry 429/5xx by default: pass `maxRetries: 0` when testing errors.
 */
export { messageBody, messageEvents } from './anthropic-messages.js';
export {
  DEFAULT_TEXT,
  DEFAULT_USAGE,
  type FakeCompletion,
  type FakeToolCall,
  type FakeUsage,
} from './completion.js';
export { chatCompletionBody, chatCompletionEvents } from './openai-chat.js';
export { embeddingsBody } from './openai-embeddings.js';
export { responseBody, responseEvents } from './openai-responses.js';
export { anthropicError, type FakeReply, openaiError, rateLimited } from './replies.js';
export { type FakeProvider, type RecordedRequest, startFakeProvider } from './server.js';
export { type SseEvent, sseFrame } from './sse.js';
