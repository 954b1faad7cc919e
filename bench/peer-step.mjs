#!/usr/bin/env node
// CPU per agent step of the peerbench workload (an agentStep calling an
// llmCall 3 times, 4 traced calls) through one or more built SDKs, with
// default options, exporting to the peerbench's sink in a child process:
// rounds of sequential steps, each ended by a flush, process CPU per step
// (so the drain is included). Builds alternate, each in a fresh process, so
// an A/B in one run sees the same machine; compare the ratios.
//
//   node bench/peer-step.mjs --peerbench DIR [--size 1024] [--rounds 16] [--steps 400] [--reps 3] SDK...
//
// DIR: a copy of ../shared/peerbench with its node_modules (its lib/ is used).
// SDK: a built SDK's dist/index.js (e.g. packages/sdk/dist/index.js, or a copy
// of an older build inside this repository's node_modules so its imports
// resolve), or `untraced`. The first round of each process is left out (start-up).
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args, positionals } = parseArgs({
  options: {
    peerbench: { type: 'string' },
    size: { type: 'string', default: '1024' },
    rounds: { type: 'string', default: '16' },
    steps: { type: 'string', default: '400' },
    reps: { type: 'string', default: '3' },
    child: { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
if (args.peerbench === undefined || positionals.length === 0) {
  console.error(
    'usage: node bench/peer-step.mjs --peerbench DIR [--size N] [--rounds N] [--steps N] [--reps N] SDK...',
  );
  process.exit(2);
}
const peerbench = resolve(args.peerbench);
const size = Number(args.size);
const rounds = Number(args.rounds);
const steps = Number(args.steps);

if (args.child) {
  const sdk = positionals[0];
  const { makeWorkload } = await import(pathToFileURL(join(peerbench, 'lib/workload.mjs')).href);
  // WEFT_DIR: the sink decodes Weft's batches with this checkout's route (bench/peerbench-sink-route.mjs).
  const sink = fork(join(peerbench, 'lib/sink.mjs'), [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, WEFT_DIR: fileURLToPath(new URL('..', import.meta.url)) },
  });
  const url = await new Promise((done) => sink.once('message', (m) => done(m.url)));
  let wrap = (fn) => fn;
  let client;
  const outboxDir = mkdtempSync(join(tmpdir(), 'peer-step-outbox-'));
  if (sdk !== 'untraced') {
    const weft = await import(pathToFileURL(resolve(sdk)).href);
    client = weft.init({ project: 'peer-step', url, outboxDir });
    wrap = (fn, name) => weft.op(fn, { name });
  }
  const { agentStep, makeInput } = makeWorkload(size, wrap);
  const perStep = [];
  for (let r = 0; r < rounds; r++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < steps; i++) await agentStep(makeInput());
    if (client) await client.flush();
    const c = process.cpuUsage(c0);
    perStep.push((c.user + c.system) / steps);
  }
  if (client) await client.shutdown();
  rmSync(outboxDir, { recursive: true, force: true });
  sink.kill();
  process.send?.(perStep.slice(1));
  process.exit(0);
}

const self = fileURLToPath(import.meta.url);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runChild = (sdk) =>
  new Promise((done, fail) => {
    const child = fork(self, [
      '--child',
      '--peerbench',
      peerbench,
      '--size',
      `${size}`,
      '--rounds',
      `${rounds}`,
      '--steps',
      `${steps}`,
      sdk,
    ]);
    let result;
    child.once('message', (m) => (result = m));
    child.once('exit', (code) =>
      code === 0 && result ? done(result) : fail(new Error(`${sdk}: exit ${code}`)),
    );
  });

const rounds_ = new Map(positionals.map((sdk) => [sdk, []]));
const loads = [loadavg()[0]];
for (let rep = 0; rep < Number(args.reps); rep++) {
  for (const sdk of positionals) rounds_.get(sdk).push(...(await runChild(sdk)));
  loads.push(loadavg()[0]);
}
let commit = '';
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
} catch {}
console.log(
  `peer-step: size ${size} B, ${args.reps} processes × ${rounds - 1} rounds × ${steps} steps per SDK, alternating; load ${loads.map((l) => l.toFixed(1)).join(' → ')}; HEAD ${commit}`,
);
console.log('| SDK | median CPU µs per step incl. flush | p25 | p75 | ratio to the first |');
console.log('| --- | ---: | ---: | ---: | ---: |');
const first = median(rounds_.get(positionals[0]));
for (const [sdk, xs] of rounds_) {
  const sorted = [...xs].sort((a, b) => a - b);
  const q = (p) => sorted[Math.floor(p * (sorted.length - 1))];
  console.log(
    `| ${sdk} | ${median(xs).toFixed(0)} | ${q(0.25).toFixed(0)} | ${q(0.75).toFixed(0)} | ${(median(xs) / first).toFixed(2)} |`,
  );
}
