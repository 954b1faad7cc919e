/** Where the server's LLM judge is: from the server's options or environment, never from a rule or the database. */
export interface JudgeEndpoint {
  provider: 'openai' | 'anthropic';
  /** `https://api.openai.com/v1`-style base for OpenAI-compatible APIs; the API root for Anthropic. */
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

export interface JudgeRequest {
  model: string;
  prompt: string;
  maxTokens: number;
  temperature: number;
}

/** What one judge request came to. */
export type JudgeReply =
  | { ok: true; text: string; inputTokens: number; outputTokens: number; status: number }
  /** `retryable`: a 429, a 5xx, a timeout or a refused connection — the same request may work later. */
  | { ok: false; retryable: boolean; retryAfterMs?: number; status: number | null; error: string };

const SYSTEM = 'You are an impartial evaluator. Judge exactly what you are asked and answer with JSON only.';

/** Sends one prompt to the judge (chat completions, or Anthropic messages). Never throws. */
export async function askJudge(endpoint: JudgeEndpoint, request: JudgeRequest): Promise<JudgeReply> {
  const base = endpoint.baseUrl.replace(/\/+$/, '');
  const openai = endpoint.provider === 'openai';
  const url = openai ? `${base}/chat/completions` : `${base}/v1/messages`;
  const headers: Record<string, string> = openai
    ? { authorization: `Bearer ${endpoint.apiKey}` }
    : { 'x-api-key': endpoint.apiKey, 'anthropic-version': '2023-06-01' };
  const body = openai
    ? {
        model: request.model,
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: request.prompt },
        ],
        max_tokens: request.maxTokens,
        temperature: request.temperature,
      }
    : {
        model: request.model,
        system: SYSTEM,
        messages: [{ role: 'user', content: request.prompt }],
        max_tokens: request.maxTokens,
        temperature: request.temperature,
      };
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(endpoint.timeoutMs),
    });
  } catch (error) {
    const timeout = (error as Error).name === 'TimeoutError';
    const reason = timeout
      ? `no answer within ${endpoint.timeoutMs} ms`
      : ((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message);
    return {
      ok: false,
      retryable: true,
      status: null,
      error: `the judge at ${base} did not answer: ${reason}`,
    };
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) {
    const retryAfter = Number(response.headers.get('retry-after'));
    return {
      ok: false,
      retryable: response.status === 408 || response.status === 429 || response.status >= 500,
      status: response.status,
      error: `the judge answered ${response.status}: ${text.slice(0, 300)}`,
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1_000 } : {}),
    };
  }
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    if (openai) {
      const choice = (json.choices as { message?: { content?: unknown } }[] | undefined)?.[0];
      const usage = json.usage as { prompt_tokens?: number; completion_tokens?: number } | undefined;
      return {
        ok: true,
        status: response.status,
        text: typeof choice?.message?.content === 'string' ? choice.message.content : '',
        inputTokens: usage?.prompt_tokens ?? 0,
        outputTokens: usage?.completion_tokens ?? 0,
      };
    }
    const content = (json.content as { type?: string; text?: unknown }[] | undefined) ?? [];
    const usage = json.usage as { input_tokens?: number; output_tokens?: number } | undefined;
    return {
      ok: true,
      status: response.status,
      text: content
        .map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
        .join(''),
      inputTokens: usage?.input_tokens ?? 0,
      outputTokens: usage?.output_tokens ?? 0,
    };
  } catch {
    return {
      ok: false,
      retryable: false,
      status: response.status,
      error: `the judge's response is not JSON: ${text.slice(0, 200)}`,
    };
  }
}
