// The traced app code the serverless examples share: an op that stands in
// for a model call (swap in `@weft/sdk/openai` or your own client).
import * as weft from '@weft/sdk';

// Named explicitly: serverless code is usually bundled, and a bundler may
// rename `function answer` (esbuild makes it `answer2`).
export const answer = weft.op(
  async function answer(question) {
    return {
      model: 'gpt-4o-mini',
      text: `You asked: ${question}`,
      usage: {
        prompt_tokens: 12 + question.length,
        completion_tokens: 5,
        total_tokens: 17 + question.length,
      },
    };
  },
  { name: 'answer' },
);
