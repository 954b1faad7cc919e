// A child process that runs one of examples/serverless the way its platform
// does, driven over IPC: each message is a request; the process answers
// `responded` when the platform would send the response and `finished` when
// the platform would freeze or end the instance (for Lambda: when the handler's
// promise resolves; for Vercel and Workers: when every waitUntil / after
// promise has settled). The test freezes the process (SIGSTOP) on `finished`.
// argv: <platform>  (lambda | vercel | next | worker)

// The examples are imported by literal path so esbuild bundles them with
// `weft` resolved to its sources; `as string` keeps TypeScript from looking
// for types of a plain .mjs file.
const platform = process.argv[2];

interface Invocation {
  question: string;
}

type Run = (invocation: Invocation) => Promise<{ body: unknown; background: Promise<unknown>[] }>;

/** Lambda: the handler's promise is all there is. */
async function lambda(): Promise<Run> {
  const { handler } = await import('../../../../examples/serverless/aws-lambda.mjs' as string);
  let n = 0;
  return async ({ question }) => {
    const context = { awsRequestId: `req-${++n}`, getRemainingTimeInMillis: () => 30_000 };
    const result = await handler({ body: JSON.stringify({ question }) }, context);
    return { body: JSON.parse(result.body), background: [] };
  };
}

/** Vercel's request context, as `@vercel/functions` reads it: `waitUntil` of the current request. */
function vercelContext(): { collect(): Promise<unknown>[] } {
  let pending: Promise<unknown>[] = [];
  const context = { waitUntil: (promise: Promise<unknown>) => void pending.push(promise) };
  (globalThis as Record<symbol, unknown>)[Symbol.for('@vercel/request-context')] = { get: () => context };
  return {
    collect() {
      const out = pending;
      pending = [];
      return out;
    },
  };
}

async function vercel(): Promise<Run> {
  const context = vercelContext();
  const { GET } = await import('../../../../examples/serverless/vercel-wait-until.mjs' as string);
  return async ({ question }) => {
    const response: Response = await GET(
      new Request(`http://fn.local/api/answer?q=${encodeURIComponent(question)}`),
    );
    return { body: await response.json(), background: context.collect() };
  };
}

async function next(): Promise<Run> {
  const { takeAfterTasks } = await import('./fake-next-server.js');
  const { POST } = await import('../../../../examples/serverless/next-after.mjs' as string);
  return async ({ question }) => {
    const request = new Request('http://fn.local/api/answer', {
      method: 'POST',
      body: JSON.stringify({ question }),
    });
    const response: Response = await POST(request);
    const body = await response.json();
    // Response sent; now what `after` scheduled runs, and the instance waits for it.
    return { body, background: takeAfterTasks() };
  };
}

async function worker(): Promise<Run> {
  const { default: app } = await import('../../../../examples/serverless/cloudflare-worker.mjs' as string);
  const env = { WEFT_PROJECT: process.env.WEFT_PROJECT, WEFT_URL: process.env.WEFT_URL };
  return async ({ question }) => {
    const background: Promise<unknown>[] = [];
    const ctx = {
      waitUntil: (promise: Promise<unknown>) => void background.push(promise),
      passThroughOnException() {},
    };
    const response: Response = await app.fetch(
      new Request(`http://worker.local/?q=${encodeURIComponent(question)}`),
      env,
      ctx,
    );
    return { body: await response.json(), background };
  };
}

const platforms: Record<string, () => Promise<Run>> = { lambda, vercel, next, worker };
const start = platforms[platform ?? ''];
if (start === undefined) throw new Error(`unknown platform ${platform}`);
const run = await start();

process.on('message', (invocation: Invocation) => {
  void run(invocation).then(async ({ body, background }) => {
    process.send?.({ type: 'responded', body });
    await Promise.allSettled(background);
    process.send?.({ type: 'finished' });
  });
});
process.send?.({ type: 'ready' });
