import type { Call } from '@weft/protocol';
import { onTestFinished } from 'vitest';
import * as weft from '@weft/sdk';
import { resetWeft } from '../../src/testing/index.js';
import { type FakeProvider, startFakeProvider } from '../fixtures/fake-provider/index.js';
import { startTestServer } from '@weft/test-server';

/** A real Weft server, a fake provider and a Weft client tracing to the server; all closed after the test. */
export interface IntegrationSetup {
  provider: FakeProvider;
  client: weft.WeftClient;
  /** Flushes, then every call the server has, in the order they started. */
  calls(): Promise<Call[]>;
}

export async function setup(project: string, prices?: weft.WeftOptions['prices']): Promise<IntegrationSetup> {
  const server = await startTestServer();
  const provider = await startFakeProvider();
  onTestFinished(async () => {
    await resetWeft();
    await provider.close();
  });
  const client = weft.init({ project, url: server.url, outbox: false, prices });
  return {
    provider,
    client,
    async calls() {
      await client.flush();
      const calls = await client.getCalls().toArray();
      return calls.sort((a, b) => a.startedAt - b.startedAt);
    },
  };
}

/** What a promise gave: its value, or what it threw (the same object). */
export async function outcome<T>(promise: PromiseLike<T>): Promise<{ value?: T; error?: unknown }> {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

/** Every chunk of an async iterable, and the error that ended it if one did. */
export async function drain(stream: AsyncIterable<unknown>): Promise<{ chunks: unknown[]; error?: unknown }> {
  const chunks: unknown[] = [];
  try {
    for await (const chunk of stream) chunks.push(chunk);
    return { chunks };
  } catch (error) {
    return { chunks, error };
  }
}
