// Vercel Functions (any framework): answer at once, and let the platform keep
// the function alive until the calls are delivered. `waitUntil` takes the
// flush promise; Vercel suspends the function only after it settles.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '@vercel/functions';
import * as weft from '@weft/sdk';
import { answer } from './answer.mjs';

weft.init({ outboxDir: join(tmpdir(), 'weft-outbox') });

export async function GET(request) {
  const question = new URL(request.url).searchParams.get('q') ?? '';
  const reply = await answer(question);
  waitUntil(weft.flush({ timeoutMs: 5_000 }));
  return Response.json({ answer: reply.text });
}
