import { flush, op, publish } from '@weft/sdk';

export const QUESTIONS = [
  { question: 'What is the capital of France?', expected: 'Paris' },
  { question: 'How many legs does a spider have?', expected: '8' },
  { question: 'Who wrote Hamlet?', expected: 'Shakespeare' },
  { question: 'What is the boiling point of water in Celsius?', expected: '100' },
  { question: 'Which planet is known as the red planet?', expected: 'Mars' },
] as const;

export const SYSTEM_PROMPT_V1 = 'You answer questions.';
export const SYSTEM_PROMPT_V2 = 'You are a helpful assistant. Answer in one word.';

/** What the seeded program produced, for the test to find in the UI. */
export interface SeededProgram {
  promptRef: string;
  /** Trace ids of the `answer_question` roots, oldest first. */
  answerTraces: string[];
  errorTrace: string;
}

/** Stands in for a model's response time, so the waterfall has something to show. */
export const work = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class RateLimitError extends Error {
  override name = 'RateLimitError';
}

/**
 * A real traced program using the `weft` SDK against the server: a small
 * RAG-style app whose `answer_question` calls `retrieve` and `generate` →
 * `llm.chat` (with OpenAI-style token usage and a ref to the published system
 * prompt), plus a `summarize` that throws. Uses the default client, which
 * the caller initialises (and shuts down).
 */
export async function seedProgram(): Promise<SeededProgram> {
  {
    await publish({ text: SYSTEM_PROMPT_V1, temperature: 0.7 }, { name: 'system-prompt' });
    const prompt = await publish({ text: SYSTEM_PROMPT_V2, temperature: 0.2 }, { name: 'system-prompt' });
    const answers = new Map<string, string>(QUESTIONS.map((q) => [q.question, q.expected]));

    // Names are given explicitly: a bundler may rename `function retrieve` (here
    // esbuild made it `retrieve2`), and the op name is what the UI filters on.
    const retrieve = op(
      async function retrieve(query: string, k: number) {
        await work(15);
        return Array.from({ length: Math.min(k, 2) }, (_, i) => ({
          doc: `notes-${query.length % 7}-${i}.md`,
          score: 0.9 - i / 10,
        }));
      },
      { name: 'retrieve' },
    );
    const chat = op(
      async function chat(request: {
        model: string;
        prompt: string;
        messages: { role: string; content: string }[];
      }) {
        const question = request.messages.at(-1)?.content ?? '';
        await work(40);
        return {
          model: request.model,
          role: 'assistant',
          content: answers.get(question) ?? 'unknown',
          usage: {
            prompt_tokens: 100 + question.length,
            completion_tokens: 8,
            total_tokens: 108 + question.length,
          },
        };
      },
      { name: 'llm.chat' },
    );
    const generate = op(
      async function generate(question: string, context: string[]) {
        await work(5);
        const reply = await chat({
          model: 'gpt-4o-mini',
          prompt: prompt.uri,
          messages: [
            { role: 'system', content: `${SYSTEM_PROMPT_V2}\nContext: ${context.join(', ')}` },
            { role: 'user', content: question },
          ],
        });
        return reply.content;
      },
      { name: 'generate' },
    );
    const answerTraces: string[] = [];
    const answerQuestion = op(
      async function answer_question(question: string) {
        const docs = await retrieve(question, 3);
        return generate(
          question,
          docs.map((d) => d.doc),
        );
      },
      {
        name: 'answer_question',
        displayName: (inputs) => `answer: ${String(inputs.question)}`,
        onFinish: (c) => answerTraces.push(c.traceId),
      },
    );
    let errorTrace = '';
    const summarize = op(
      async function summarize(document: string) {
        throw new RateLimitError(
          `Rate limit exceeded: retry after 20s (document of ${document.length} chars)`,
        );
      },
      {
        name: 'summarize',
        displayName: 'summarize: quarterly report',
        onFinish: (c) => (errorTrace = c.traceId),
      },
    );

    for (const { question } of QUESTIONS) await answerQuestion(question);
    await summarize('Q3 revenue grew 12%. '.repeat(40)).catch(() => {});
    const result = await flush();
    if (result.failed > 0 || result.pending > 0 || result.objectsFailed > 0) {
      throw new Error(`The traced program's data did not all reach the server: ${JSON.stringify(result)}`);
    }
    return { promptRef: prompt.uri, answerTraces, errorTrace };
  }
}
