import { isPlainObject } from '../../datasets/index.js';

/**
 * True when a chat completions request streams and its caller left
 * `stream_options.include_usage` unset: the wrapper then asks for usage
 * (the only way the API reports it for a stream) and hides what that adds
 * from the caller (see {@link ChatCompletionAccumulator}).
 */
export function addsStreamUsage(request: unknown): boolean {
  if (!isPlainObject(request) || request.stream !== true) return false;
  const streamOptions = request.stream_options;
  if (streamOptions === undefined || streamOptions === null) return true;
  return isPlainObject(streamOptions) && streamOptions.include_usage === undefined;
}

/** The request sent: the caller's, or a copy asking for stream usage. The caller's object is never changed. */
export function withStreamUsage(request: unknown): unknown {
  if (!addsStreamUsage(request)) return request;
  const r = request as Record<string, unknown>;
  return {
    ...r,
    stream_options: { ...(r.stream_options as object | null | undefined), include_usage: true },
  };
}
