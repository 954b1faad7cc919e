// Weft quick start: trace a small "answer a question" pipeline.
//
//   WEFT_URL=http://127.0.0.1:7420 WEFT_PROJECT=quickstart node examples/quickstart.mjs
//
// `npm run demo` runs this against an embedded server and prints the trace.
// No API key or network needed: the "model" below is a stand-in that returns
// an OpenAI-shaped response, so Weft records its token usage like a real one.
import * as weft from '@weft/sdk';

// Project and server come from WEFT_PROJECT and WEFT_URL; options override them.
weft.init({ project: process.env.WEFT_PROJECT ?? 'quickstart' });

const DOCS = [
  'Weft traces LLM apps at almost no cost to the caller.',
  'Weft keeps records it could not send in a durable outbox.',
  'The weft CLI runs the trace server and lists calls.',
];

// Each weft.op(fn) is traced: its arguments, its result or error, its timing,
// and the calls it makes, nested under it.
const embed = weft.op(async function embed(text) {
  // A stand-in embedding: the set of lower-case words.
  return [
    ...new Set(
      text
        .toLowerCase()
        .split(/\W+/)
        .filter((w) => w.length > 3),
    ),
  ];
});

const retrieve = weft.op(async function retrieve(question, k = 2) {
  const words = await embed(question);
  return DOCS.map((text) => ({ text, score: words.filter((w) => text.toLowerCase().includes(w)).length }))
    .sort((a, b) => b.score - a.score)
    .slice(0, k);
});

const generate = weft.op(async function generate(question, context) {
  const prompt = `Answer from the context.\n${context.map((d) => `- ${d.text}`).join('\n')}\nQ: ${question}`;
  return {
    model: 'stand-in-mini',
    text: context[0]?.text ?? 'I do not know.',
    usage: {
      prompt_tokens: Math.ceil(prompt.length / 4),
      completion_tokens: 12,
      total_tokens: Math.ceil(prompt.length / 4) + 12,
    },
  };
});

const answer = weft.op(async function answer(question) {
  const context = await retrieve(question);
  const reply = await generate(question, context);
  return reply.text;
});

for (const question of ['What does Weft cost the caller?', 'Where do unsent records go?']) {
  console.log(`Q: ${question}\nA: ${await answer(question)}`);
}

// Tracing happens off the caller's turn; flush() waits until every record
// has reached the server (or, if it is down, the outbox on disk).
const { sent, spilled, failed, pending } = await weft.flush();
console.log(`Traced: ${sent} calls sent to the server, ${spilled} kept in the outbox, ${failed} failed.`);
if (failed > 0 || pending > 0) process.exitCode = 1;
