// AWS Lambda: Lambda freezes the process the moment the handler's promise
// resolves, so anything still queued would wait, frozen, until the next
// invocation (or be lost with the instance). `weft.withFlush` resolves the
// handler's promise only once its calls are acknowledged by the trace server
// or kept in the outbox.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as weft from '@weft/sdk';
import { answer } from './answer.mjs';

// WEFT_PROJECT, WEFT_URL and WEFT_API_KEY come from the function's
// environment. Only /tmp is writable on Lambda: keep the outbox there.
weft.init({ outboxDir: join(tmpdir(), 'weft-outbox') });

export const handler = weft.withFlush(
  async (event, context) => {
    const { question } = JSON.parse(event.body ?? '{}');
    const reply = await answer(question);
    return {
      statusCode: 200,
      body: JSON.stringify({ answer: reply.text, requestId: context.awsRequestId }),
    };
  },
  // Leave time for the response before the function's own timeout.
  { timeoutMs: 5_000 },
);
