#!/usr/bin/env node
// What an OTLP span costs before storage, stage by stage: the server's own
// decoding and mapping functions (bundled from source) run over the ingest
// bench's bodies (bench/lib/ingest-bodies.mjs: 500 GenAI spans a request,
// made by the real OpenTelemetry SDK and serializers), each stage timed
// alone, in rounds. CPU µs per span, median of the rounds.
//
//   node bench/otlp-mapping.mjs --spans 20000 --rounds 5
//   node --cpu-prof bench/otlp-mapping.mjs --only spanToCall   (a profile of one stage)
import os from 'node:os';
import { parseArgs } from 'node:util';
import { bundleSources, src } from './lib/bundle-sources.mjs';
import { otlpBodies } from './lib/ingest-bodies.mjs';

const { values: args } = parseArgs({
  options: {
    spans: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '5' },
    only: { type: 'string', multiple: true },
  },
});
const spans = Number(args.spans);
const server = await bundleSources(
  'otlp-mapping',
  `export { countTraceRequestNodes } from ${src('packages/server/src/otlp/otlp-nodes.ts')};
   export { decodeTraceRequest } from ${src('packages/server/src/otlp/otlp-codec.ts')};
   export { spansOfOtlp } from ${src('packages/server/src/otlp/otlp-spans.ts')};
   export { spansOfOtlpProtobuf } from ${src('packages/server/src/otlp/otlp-wire-spans.ts')};
   export { resourceOfCalls } from ${src('packages/server/src/otlp/trace-project.ts')};
   export { countJsonNodes, spanToCall } from '@weft/protocol';`,
);
const bodiesOf = (format) =>
  otlpBodies({ format, project: 'bench', records: spans, recordBytes: 1024, batchSize: 500 }).bodies.map(
    ({ body }) => body,
  );
const proto = bodiesOf('otlp-proto');
const json = bodiesOf('otlp-json');
const protoRequests = proto.map((b) => server.decodeTraceRequest(b));
const jsonRequests = json.map((b) => JSON.parse(b.toString('utf8')));
const neutral = protoRequests.map((r) => server.spansOfOtlp(r));

const stages = [
  {
    label: 'protobuf: protobufjs decode (before)',
    run: () => proto.map((b) => server.decodeTraceRequest(b)),
  },
  {
    label: 'protobuf: spansOfOtlp of that (before)',
    run: () => protoRequests.map((r) => server.spansOfOtlp(r)),
  },
  {
    label: 'protobuf: spansOfOtlpProtobuf (wire to spans, fields counted: what ingest runs)',
    run: () => proto.map((b) => server.spansOfOtlpProtobuf(b)),
  },
  {
    label: 'JSON: node count (413 guard)',
    run: () => {
      for (const b of json) server.countJsonNodes(b, { maxNodes: 10_000_000 });
    },
  },
  { label: 'JSON: parse', run: () => json.map((b) => JSON.parse(b.toString('utf8'))) },
  { label: 'JSON: spansOfOtlp', run: () => jsonRequests.map((r) => server.spansOfOtlp(r)) },
  {
    label: 'spanToCall',
    run: () => {
      const out = [];
      for (const request of neutral) {
        for (const { resource, spans: list } of request) {
          const callResource = server.resourceOfCalls(resource);
          for (const span of list) out.push(server.spanToCall(span, callResource));
        }
      }
      return out;
    },
  },
];
const chosen = args.only ? stages.filter((s) => args.only.some((o) => s.label.includes(o))) : stages;

process.stdout.write(
  `otlp-mapping: ${spans} spans, ${args.rounds} rounds, load ${os.loadavg()[0].toFixed(1)}\n`,
);
const runs = new Map(chosen.map((s) => [s.label, []]));
for (let round = 0; round < Number(args.rounds); round++) {
  for (const stage of chosen) {
    const before = process.cpuUsage();
    stage.run();
    const cpu = process.cpuUsage(before);
    runs.get(stage.label).push((cpu.user + cpu.system) / spans);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
process.stdout.write('\n| Stage | CPU µs per span (median) | Runs |\n| --- | ---: | --- |\n');
for (const [label, xs] of runs) {
  process.stdout.write(
    `| ${label} | ${median(xs).toFixed(1)} | ${xs.map((x) => x.toFixed(1)).join(', ')} |\n`,
  );
}
process.stdout.write(`load after: ${os.loadavg()[0].toFixed(1)}\n`);
