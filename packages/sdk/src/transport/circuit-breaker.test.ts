import { describe, expect, it } from 'vitest';
import { CircuitBreaker, type CircuitState } from './circuit-breaker.js';
import { ManualTimers } from '../../test/support/transport/manual-timers.js';

function makeBreaker(probeAnswers: boolean[]) {
  const timers = new ManualTimers();
  const changes: [CircuitState, CircuitState][] = [];
  let probes = 0;
  const pendingProbes: ((answered: boolean) => void)[] = [];
  const breaker = new CircuitBreaker({
    failureThreshold: 3,
    backoff: { baseMs: 100, maxMs: 1_000 },
    timers,
    random: () => 0.999,
    probe: () => {
      probes += 1;
      const answer = probeAnswers.shift();
      if (answer !== undefined) return Promise.resolve(answer);
      return new Promise((resolve) => pendingProbes.push(resolve));
    },
    onChange: (state, previous) => changes.push([state, previous]),
  });
  return { breaker, timers, changes, probes: () => probes, pendingProbes };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('CircuitBreaker', () => {
  it('opens only after failureThreshold consecutive failures', () => {
    const { breaker } = makeBreaker([]);
    breaker.recordFailure();
    breaker.recordFailure();
    breaker.recordSuccess();
    breaker.recordFailure();
    breaker.recordFailure();
    expect(breaker.state).toBe('closed');
    breaker.recordFailure();
    expect(breaker.state).toBe('open');
  });

  it('probes after a growing delay, one probe at a time, and closes when one answers', async () => {
    const { breaker, timers, changes, probes } = makeBreaker([false, false, true]);
    for (let i = 0; i < 3; i++) breaker.recordFailure();
    expect(timers.pendingDelays).toEqual([100]); // max(baseMs, jitter 99)
    timers.fireNext();
    expect(breaker.state).toBe('half-open');
    await tick();
    expect(breaker.state).toBe('open');
    expect(timers.pendingDelays).toEqual([199]);
    timers.fireNext();
    await tick();
    expect(timers.pendingDelays).toEqual([399]);
    const closed = breaker.whenClosed();
    timers.fireNext();
    await closed;
    expect(breaker.state).toBe('closed');
    expect(probes()).toBe(3);
    expect(changes.map(([state]) => state)).toEqual([
      'open',
      'half-open',
      'open',
      'half-open',
      'open',
      'half-open',
      'closed',
    ]);
  });

  it('keeps the probe backoff level after a probe-only recovery, resets it after a real success', async () => {
    const { breaker, timers } = makeBreaker([true, true]);
    for (let i = 0; i < 3; i++) breaker.recordFailure();
    timers.fireNext();
    await tick();
    expect(breaker.state).toBe('closed');
    for (let i = 0; i < 3; i++) breaker.recordFailure();
    expect(timers.pendingDelays).toEqual([199]); // level 2: the health check answering did not prove ingest works
    timers.fireNext();
    await tick();
    breaker.recordSuccess();
    for (let i = 0; i < 3; i++) breaker.recordFailure();
    expect(timers.pendingDelays).toEqual([100]);
  });

  it('closes on a real success while the probe is out, and ignores the late probe answer', async () => {
    const { breaker, timers, pendingProbes } = makeBreaker([]);
    for (let i = 0; i < 3; i++) breaker.recordFailure();
    timers.fireNext();
    expect(breaker.state).toBe('half-open');
    breaker.recordSuccess();
    expect(breaker.state).toBe('closed');
    pendingProbes[0]!(false);
    await tick();
    expect(breaker.state).toBe('closed');
  });

  it('never probes sooner than baseMs, even when the jitter draws 0', () => {
    const timers = new ManualTimers();
    const breaker = new CircuitBreaker({
      failureThreshold: 1,
      backoff: { baseMs: 100, maxMs: 1_000 },
      timers,
      random: () => 0,
      probe: async () => false,
    });
    breaker.recordFailure();
    expect(timers.pendingDelays).toEqual([100]);
    breaker.dispose();
    expect(timers.pendingDelays).toEqual([]);
  });

  it('while hurried, probes at most hurriedProbeMs apart whatever the backoff level, and brings a later probe forward', async () => {
    const timers = new ManualTimers();
    const breaker = new CircuitBreaker({
      failureThreshold: 1,
      backoff: { baseMs: 100, maxMs: 10_000 },
      timers,
      random: () => 0.999,
      probe: async () => false,
      hurriedProbeMs: 250,
    });
    breaker.recordFailure();
    for (let i = 0; i < 6; i++) {
      timers.fireNext();
      await tick();
    }
    expect(timers.pendingDelays).toEqual([6_393]); // level 7: the outage's backoff
    const relax = breaker.hurry();
    expect(timers.pendingDelays).toEqual([250]); // brought forward
    timers.fireNext();
    await tick();
    expect(timers.pendingDelays).toEqual([250]); // level 8 would be 10 s
    relax();
    relax(); // releasing twice is harmless
    timers.fireNext();
    await tick();
    expect(timers.pendingDelays).toEqual([9_990]);
  });

  it('a probe due sooner than hurriedProbeMs is left as it is', () => {
    const { breaker, timers } = makeBreaker([]);
    for (let i = 0; i < 3; i++) breaker.recordFailure();
    expect(timers.pendingDelays).toEqual([100]);
    breaker.hurry();
    expect(timers.pendingDelays).toEqual([100]);
  });

  it('tells every subscriber each change until it unsubscribes', () => {
    const { breaker } = makeBreaker([]);
    const seen: string[] = [];
    const unsubscribe = breaker.subscribe((state, previous) => seen.push(`${previous}->${state}`));
    for (let i = 0; i < 3; i++) breaker.recordFailure();
    breaker.recordSuccess();
    unsubscribe();
    for (let i = 0; i < 3; i++) breaker.recordFailure();
    expect(seen).toEqual(['closed->open', 'open->closed']);
  });
});
