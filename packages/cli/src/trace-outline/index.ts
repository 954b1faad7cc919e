// A trace as an outline an LLM can read within a token budget (`weft mcp`'s get_trace).
export { estimateTokens } from './estimate-tokens.js';
export { MIN_OUTLINE_TOKENS, type OutlineOptions, outlineTrace, type TraceOutline } from './outline-trace.js';
