import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A tool's answer: text an agent reads (tables and outlines, not JSON: fewer tokens for the same facts). */
export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}
