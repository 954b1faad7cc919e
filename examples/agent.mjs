// An agent-style program traced with Weft: one agent step asks a (fake) LLM
// three times, calls a tool in between, and publishes its prompt as a
// versioned object. Token usage from the LLM responses is summed per model
// and rolled up into the step.
//
//   weft serve &                                  # or any running Weft server
//   WEFT_URL=http://127.0.0.1:7420 node examples/agent.mjs
//
// Prints the trace id; open it in the web UI or with `weft calls --trace <id>`.
import * as weft from '@weft/sdk';

const client = weft.init({ project: process.env.WEFT_PROJECT ?? 'agent-example' });

/** A prompt template, saved as its own object version; calls record its ref. */
class Prompt extends weft.WeftObject {
  constructor(template) {
    super();
    this.template = template;
  }

  render(vars) {
    return this.template.replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? ''));
  }
}

const system = new Prompt('You are a travel agent. Today is {day}. Be brief.');

const cheapest = (messages) => {
  const hotels = JSON.parse(messages.find((m) => m.role === 'tool').content);
  return hotels.sort((a, b) => a.pricePerNight - b.pricePerNight)[0].name;
};

// A stand-in for an LLM SDK call: an OpenAI-shaped response with `usage`.
const llm = weft.op(async function chatCompletion(messages, options) {
  await new Promise((r) => setTimeout(r, 20)); // the model "thinks"
  const wantsTool = !messages.some((m) => m.role === 'tool');
  return {
    id: `chatcmpl-${messages.length}`,
    model: options.model,
    choices: [
      {
        message: wantsTool
          ? {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: 'call_1', function: { name: 'searchHotels', arguments: '{"city":"Lisbon"}' } },
              ],
            }
          : {
              role: 'assistant',
              content: `Turn ${messages.length}: the best value is ${cheapest(messages)}.`,
            },
      },
    ],
    usage: {
      prompt_tokens: 40 * messages.length,
      completion_tokens: 12,
      total_tokens: 40 * messages.length + 12,
    },
  };
});

const searchHotels = weft.op(async function searchHotels({ city }) {
  return [
    { name: `${city} Palace`, pricePerNight: 180 },
    { name: `Hostel ${city}`, pricePerNight: 35 },
  ];
});

let traceId;
const agentStep = weft.op(
  async function agentStep(task, prompt) {
    traceId = weft.currentCall()?.traceId;
    const messages = [
      { role: 'system', content: prompt.render({ day: 'Tuesday' }) },
      { role: 'user', content: task },
    ];
    for (let turn = 0; turn < 3; turn++) {
      const reply = await llm(messages, { model: 'gpt-4o-mini', temperature: 0 });
      const message = reply.choices[0].message;
      // The agent loop mutates `messages` after each call; Weft recorded the
      // inputs as they were when each call started.
      messages.push(message);
      for (const call of message.tool_calls ?? []) {
        const result = await searchHotels(JSON.parse(call.function.arguments));
        messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
      }
    }
    return messages.at(-1).content;
  },
  { displayName: (inputs) => `agent: ${inputs.task}` },
);

// Attributes apply to every call started inside the block.
const answer = await weft.withAttributes({ user: 'demo-user', session: 's-1' }, () =>
  agentStep('Find me a cheap hotel in Lisbon', system),
);
console.log(answer);
console.log(`trace ${traceId}`);

// Not required (Weft flushes on exit), but lets us read the trace back now.
const flushed = await weft.flush({ timeoutMs: 10_000 });
console.log(`${flushed.sent} calls sent, ${flushed.objects} object versions, ${flushed.pending} pending`);
const [root] = await client.getCalls({ traceId, parentId: null }).toArray();
if (root?.summary?.usage) console.log('usage', JSON.stringify(root.summary.usage));
await weft.shutdown();
