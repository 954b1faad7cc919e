// Child process of the crash-and-resume test: runs the 500-row evaluation with
// a checkpoint, logs each completed model invocation synchronously (the log
// must survive SIGKILL), prints HALFWAY once 100 rows are recorded and
// SUMMARY <json> at the end.
import { appendFileSync } from 'node:fs';
import { crashEvaluation, crashModel } from './crash-evaluation.js';

const [checkpoint, invocationLog, resume] = process.argv.slice(2) as [string, string, string];
const ev = crashEvaluation();
let recorded = 0;
const summary = await ev.evaluate(
  crashModel(20, (i) => appendFileSync(invocationLog, `${i}\n`)),
  {
    concurrency: 8,
    checkpoint,
    resume: resume === '1',
    progress: false,
    print: false,
    onResult: () => {
      if (++recorded === 100) process.stdout.write('HALFWAY\n');
    },
  },
);
process.stdout.write(`SUMMARY ${JSON.stringify({ summary, run: { ...ev.lastRun, results: undefined } })}\n`);
