import { randomUUID } from 'node:crypto';
import type { CallItem } from '@weft/protocol';
import { type ApiSeeder, completeCall } from './api-seed.js';

export const QUESTIONS = [
  { question: 'What is the capital of France?', expected: 'Paris' },
  { question: 'How many legs does a spider have?', expected: '8' },
  { question: 'Who wrote Hamlet?', expected: 'Shakespeare' },
  { question: 'What is the boiling point of water in Celsius?', expected: '100' },
  { question: 'Which planet is known as the red planet?', expected: 'Mars' },
] as const;

export const SYSTEM_PROMPT_V1 = 'You answer questions.';
export const SYSTEM_PROMPT_V2 = 'You are a helpful assistant. Answer in one word.';

/** What the seeded "program" produced, for the test to find in the UI. */
export interface SeededProgram {
  promptRef: string;
  datasetRef: string;
  /** Trace ids of the `answer_question` roots, oldest first. */
  answerTraces: string[];
  errorTrace: string;
}

/**
 * A small RAG-style program's traces, recorded through the HTTP API:
 * `answer_question` → `retrieve`, `generate` → `llm.chat` (with token usage
 * and a ref to the system prompt object), one failing `summarize` with a
 * stack, and a dataset object whose rows live in a table.
 */
export async function seedProgramViaApi(seeder: ApiSeeder, baseMs: number): Promise<SeededProgram> {
  await seeder.object('system-prompt', { text: SYSTEM_PROMPT_V1, temperature: 0.7 });
  const promptRef = await seeder.object('system-prompt', { text: SYSTEM_PROMPT_V2, temperature: 0.2 });
  const tableRef = await seeder.table(QUESTIONS.map((q) => ({ ...q })));
  const datasetRef = await seeder.object('qa-dataset', { _type: 'Dataset', name: 'qa-dataset', rows: tableRef });

  const items: CallItem[] = [];
  const answerTraces: string[] = [];
  let t = baseMs;
  QUESTIONS.forEach(({ question, expected }, i) => {
    const root = randomUUID();
    answerTraces.push(root);
    const usage = { 'gpt-4o-mini': { requests: 1, inputTokens: 120 + i, outputTokens: 8, totalTokens: 128 + i } };
    const generate = randomUUID();
    items.push(
      completeCall({
        id: root,
        traceId: root,
        parentId: null,
        opName: 'answer_question',
        displayName: `answer: ${question}`,
        startedAt: t,
        endedAt: t + 420,
        inputs: { question },
        output: expected,
        summary: { latencyMs: 420, status: 'success', usage },
      }),
      completeCall({
        traceId: root,
        parentId: root,
        opName: 'retrieve',
        startedAt: t + 5,
        endedAt: t + 90,
        inputs: { query: question, k: 3 },
        output: [{ doc: `notes-${i}.md`, score: 0.91 }],
        summary: { latencyMs: 85, status: 'success' },
      }),
      completeCall({
        id: generate,
        traceId: root,
        parentId: root,
        opName: 'generate',
        startedAt: t + 95,
        endedAt: t + 410,
        inputs: { question, context: `notes-${i}.md` },
        output: expected,
        summary: { latencyMs: 315, status: 'success', usage },
      }),
      completeCall({
        traceId: root,
        parentId: generate,
        opName: 'llm.chat',
        startedAt: t + 100,
        endedAt: t + 400,
        inputs: {
          model: 'gpt-4o-mini',
          prompt: promptRef,
          messages: [
            { role: 'system', content: SYSTEM_PROMPT_V2 },
            { role: 'user', content: question },
          ],
        },
        output: { role: 'assistant', content: expected },
        summary: { latencyMs: 300, status: 'success', usage },
      }),
    );
    t += 1_000;
  });

  const errorTrace = randomUUID();
  items.push(
    completeCall({
      id: errorTrace,
      traceId: errorTrace,
      parentId: null,
      opName: 'summarize',
      displayName: 'summarize: quarterly report',
      startedAt: t,
      endedAt: t + 35,
      inputs: { document: 'Q3 revenue grew 12%. '.repeat(40) },
      exception: {
        name: 'RateLimitError',
        message: 'Rate limit exceeded: retry after 20s',
        stack: 'RateLimitError: Rate limit exceeded: retry after 20s\n    at callModel (app.ts:42:11)\n    at summarize (app.ts:17:5)',
      },
      summary: { latencyMs: 35, status: 'error' },
    }),
  );
  await seeder.calls(items);
  return { promptRef, datasetRef, answerTraces, errorTrace };
}
