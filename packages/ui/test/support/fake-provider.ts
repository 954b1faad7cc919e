/**
 * The fake LLM provider the SDK's tests use (OpenAI and Anthropic wire
 * formats, JSON and SSE, on 127.0.0.1), shared rather than copied: the real
 * client packages talk to it through `baseURL`.
 */
export {
  anthropicError,
  type FakeProvider,
  type FakeReply,
  openaiError,
  rateLimited,
  startFakeProvider,
} from '../../../sdk/test/fixtures/fake-provider/index.js';
