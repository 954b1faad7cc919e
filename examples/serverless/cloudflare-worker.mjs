// Cloudflare Workers: settings come with each request in `env`, there is no
// file system (so no outbox), and `ctx.waitUntil` keeps the Worker running
// after the response until the flush settles.
import * as weft from '@weft/sdk';
import { answer } from './answer.mjs';

export default {
  async fetch(request, env, ctx) {
    // Once per isolate: the first request creates the client.
    if (!weft.getDefaultClient()) {
      weft.init({
        project: env.WEFT_PROJECT,
        url: env.WEFT_URL,
        apiKey: env.WEFT_API_KEY,
        outbox: false,
        handleExit: false,
      });
    }
    const question = new URL(request.url).searchParams.get('q') ?? '';
    const reply = await answer(question);
    ctx.waitUntil(weft.flush({ timeoutMs: 5_000 }));
    return Response.json({ answer: reply.text });
  },
};
