// Next.js route handler (app/api/answer/route.js): `after` runs its callback
// once the response is sent, and on Vercel the function stays alive until
// the callback's promise settles.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'next/server';
import * as weft from '@weft/sdk';
import { answer } from './answer.mjs';

weft.init({ outboxDir: join(tmpdir(), 'weft-outbox') });

export async function POST(request) {
  const { question } = await request.json();
  const reply = await answer(question);
  after(() => weft.flush({ timeoutMs: 5_000 }));
  return Response.json({ answer: reply.text });
}
