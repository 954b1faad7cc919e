import { routes, traceSampled } from '@weft/protocol';
import { startTestServer } from '@weft/test-server';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { runChild } from './support/child-process.js';

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;

/** `count` calls of op `answer`, each the root of its own trace, `n` in their inputs. */
function answers(count: number, offset = 0) {
  return Array.from({ length: count }, (_, i) => {
    const n = offset + i;
    const id = `0190a5f0-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
    return {
      type: 'complete',
      id,
      traceId: id,
      parentId: null,
      opName: n % 5 === 4 ? 'other' : 'answer',
      startedAt: 1_790_000_000_000 + n,
      inputs: { n },
      endedAt: 1_790_000_000_000 + n + 10,
      output: { text: `answer ${n}` },
    };
  });
}

async function post(url: string, path: string, body: unknown) {
  const response = await fetch(new URL(path, url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response.json();
}

describe('monitor (online evaluators in the user process)', () => {
  it('resumes after a SIGKILL mid-page with every sampled call scored exactly once', async () => {
    const server = await startTestServer();
    const project = 'monitor-kill';
    const first = await runChild(fixture('monitor-child.ts'), { args: [server.url, project, '11'] });
    await first.waitForLine('ready');
    const calls = answers(80);
    await post(server.url, routes.callBatch(), { project, items: calls });

    // Killed with two pages stored and the third in hand, partly scored.
    await first.waitForLine('hanging');
    first.kill('SIGKILL');
    await first.exited;

    const second = await runChild(fixture('monitor-child.ts'), { args: [server.url, project] });
    onTestFinished(() => second.kill());
    await second.waitForLine('ready');

    const sampled = calls.filter((c) => c.opName === 'answer' && traceSampled('thirds', c.traceId, 0.5));
    expect(sampled.length).toBeGreaterThan(20);
    await vi.waitFor(
      async () => {
        const status = (await (await fetch(new URL(routes.evaluatorList(project), server.url))).json()) as {
          evaluators: { scored: number }[];
        };
        expect(status.evaluators[0]?.scored).toBe(sampled.length);
      },
      { timeout: 30_000, interval: 100 },
    );
    for (const call of calls) {
      const { feedback } = (await (
        await fetch(new URL(routes.feedbackList(project, call.id), server.url))
      ).json()) as {
        feedback: { source?: string }[];
      };
      const mine = feedback.filter((f: { source?: string }) => f.source === 'evaluator:thirds');
      if (sampled.includes(call)) {
        expect(mine, call.id).toHaveLength(1);
        expect(mine[0]).toMatchObject({ name: 'divisible', value: call.inputs.n % 3 === 0 });
      } else {
        expect(mine, call.id).toEqual([]);
      }
    }
    // The page in hand when the first worker died was scored again by the second (at least once), stored once.
    const scoredBy = (run: typeof first) => new Set(run.stdout().match(/(?<=scoring )\S+/g));
    const again = [...scoredBy(first)].filter((id) => scoredBy(second).has(id));
    expect(again.length).toBeGreaterThan(0);
  });
});
