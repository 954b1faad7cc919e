/**
 * What a call records when a tool answered with `isError: true`: the tool
 * failed although the request succeeded. Never thrown to the caller, who
 * gets the tool's result as the MCP SDK returns it; it only makes the call's
 * status `error`, with the result's text as the message, so a failing tool
 * is found like any failing call.
 */
export class McpToolError extends Error {
  override readonly name = 'McpToolError';
  /** The tool result, returned to the caller unchanged. */
  readonly result: unknown;

  constructor(tool: string | undefined, result: unknown) {
    super(`${tool === undefined ? 'The tool' : `Tool ${tool}`} returned an error: ${resultText(result)}`);
    this.result = result;
  }
}

/** True for a tool result that reports a failure (`isError: true`). */
export function isErrorResult(result: unknown): boolean {
  return typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true;
}

const MAX_MESSAGE_CHARS = 1_000;

function resultText(result: unknown): string {
  const content = (result as { content?: unknown }).content;
  const texts = Array.isArray(content)
    ? content
        .map((part) => (part as { text?: unknown } | null)?.text)
        .filter((text): text is string => typeof text === 'string')
    : [];
  const text = texts.join('\n') || '(no text content)';
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}
