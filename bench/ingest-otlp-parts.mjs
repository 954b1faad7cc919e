#!/usr/bin/env node
// What makes OTLP span ingest cost more than native ingest on SQLite, part by
// part: the built server's `SqliteStorage` alone (no HTTP, no decoding) takes
// the same 1 KB calls in batches of 500, as native records and as the calls
// the bench's OTLP spans map to, with one difference at a time, in rounds that
// alternate the variants in this one process (so other work on the machine
// hits them alike). CPU µs per call is this process's CPU (storage runs on
// this thread; WAL checkpoints on a second one, counted too).
//
//   cd packages/server && npx tsup && cd ../.. && node bench/ingest-otlp-parts.mjs
//   node bench/ingest-otlp-parts.mjs --records 20000 --rounds 3
//   node --cpu-prof bench/ingest-otlp-parts.mjs --only spans --rounds 1   (a profile of one variant)
//   node bench/ingest-otlp-parts.mjs --only spans --baseline node_modules/.weft-bench-base/index.js
//       (A/B against another build of the server, in this one process: copy its packages/server/dist
//       to node_modules/.weft-bench-base first; adds the variant `spans, baseline build`)
//
// Variants (each a fresh database):
//   native          the native 1 KB records (`ingestCalls`): time-ordered ids, 2 attribute terms
//   spans           the OTLP spans' calls as OTLP ingest stores them (`ingestSpanCalls`: the resource's
//                   `weft.project` left out, as ingest does since 0c5c553; since 3289fc2 their 5 terms
//                   (resource, scope, kind, operation, model) are one term set: 1 attribute row a call)
//   spans, with weft.project   as ingest stored them before 0c5c553 (8 terms)
//   spans, no roll-up   the same calls through `ingestCalls` (no span usage roll-up)
//   spans, time ids     `ingestSpanCalls` with each trace's ids made time-ordered (as native's)
//   spans, 2 terms      `ingestSpanCalls` with the calls' attributes replaced by native's (2 own terms,
//                       no resource or scope in the attributes blob)
//   spans, usage attributes kept   `ingestSpanCalls` with the spans' token counts also kept in
//                       attributes (as the mapping did before 2026-11-28: 2 more attribute terms)
//   spans, time ids + 2 terms   both
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { decodeMsgpack, spanToCall } from '@weft/protocol';
import { v7 as uuidv7 } from 'uuid';
import { nativeBodies, otlpBodies } from './lib/ingest-bodies.mjs';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '3' },
    batch: { type: 'string', default: '500' },
    /** Run only these variants (by label; repeatable), e.g. for a CPU profile of one. */
    only: { type: 'string', multiple: true },
    /** Another build's server `index.js`: its `SqliteStorage` stores the spans too (`spans, baseline build`). */
    baseline: { type: 'string' },
  },
});
const records = Number(args.records);
const batchSize = Number(args.batch);
const { SqliteStorage } = await import(new URL('../packages/server/dist/index.js', import.meta.url).href);
const Baseline =
  args.baseline === undefined
    ? undefined
    : (await import(new URL(args.baseline, `file://${process.cwd()}/`).href)).SqliteStorage;

/** The native 1 KB records, batch by batch. */
const nativeBatches = nativeBodies({ project: 'bench', records, recordBytes: 1024, batchSize }).bodies.map(
  ({ body }) => decodeMsgpack(body).items,
);

/** The bench's OTLP JSON spans as `spanToCall` takes them (what `spansOfOtlp` makes of them). */
function spanBatches() {
  const { bodies } = otlpBodies({
    format: 'otlp-json',
    project: 'bench',
    records,
    recordBytes: 1024,
    batchSize,
  });
  return bodies.map(({ body }) => {
    const request = JSON.parse(body);
    const puts = [];
    for (const resourceSpans of request.resourceSpans) {
      const resource = { attributes: attributesOf(resourceSpans.resource.attributes) };
      for (const scopeSpans of resourceSpans.scopeSpans) {
        for (const s of scopeSpans.spans) {
          const span = {
            traceId: s.traceId,
            spanId: s.spanId,
            parentSpanId: s.parentSpanId ?? '',
            name: s.name,
            kind: 'client',
            startTimeUnixNano: String(s.startTimeUnixNano),
            endTimeUnixNano: String(s.endTimeUnixNano),
            attributes: attributesOf(s.attributes),
            events: [],
            links: [],
            status: { code: s.status?.code ?? 0 },
            scope: { name: scopeSpans.scope.name, version: scopeSpans.scope.version || undefined },
          };
          const mapping = spanToCall(span, resource);
          if (mapping.status !== 'mapped') throw new Error(mapping.reason);
          puts.push({ call: mapping.call, usageScope: mapping.usageScope });
        }
      }
    }
    return puts;
  });
}

function attributesOf(keyValues = []) {
  const out = {};
  for (const { key, value } of keyValues) {
    out[key] =
      value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : value.doubleValue);
  }
  return out;
}

/** The same spans with each trace's call and trace ids time-ordered (a UUIDv7 trace id; span ids after it in order). */
function withTimeOrderedIds(batches) {
  const ids = new Map();
  const timeId = (id) => {
    if (!ids.has(id)) ids.set(id, uuidv7());
    return ids.get(id);
  };
  return batches.map((puts) =>
    puts.map(({ call, usageScope }) => ({
      usageScope,
      call: {
        ...call,
        id: timeId(call.id),
        traceId: timeId(call.traceId),
        parentId: call.parentId === null ? null : timeId(call.parentId),
      },
    })),
  );
}

/** The spans without the `weft.project` resource attribute in `otel.resource`, as OTLP ingest stores them. */
function withoutProjectAttribute(batches) {
  return batches.map((puts) =>
    puts.map(({ call, usageScope }) => {
      const { 'weft.project': _, ...resource } = call.attributes['otel.resource'];
      return { usageScope, call: { ...call, attributes: { ...call.attributes, 'otel.resource': resource } } };
    }),
  );
}

/** The same spans with native's two attribute terms instead of their eight. */
function withTwoTerms(batches) {
  return batches.map((puts) =>
    puts.map(({ call, usageScope }) => ({
      usageScope,
      call: { ...call, attributes: { env: 'bench', run: 1 } },
    })),
  );
}

/** The spans with their token counts kept in attributes too, as the mapping kept them before. */
function withUsageAttributes(batches) {
  return batches.map((puts) =>
    puts.map(({ call, usageScope }) => {
      const usage = Object.values(call.summary?.usage ?? {})[0];
      if (usage === undefined) return { call, usageScope };
      const counts = {
        'gen_ai.usage.input_tokens': usage.inputTokens,
        'gen_ai.usage.output_tokens': usage.outputTokens,
      };
      return { usageScope, call: { ...call, attributes: { ...call.attributes, ...counts } } };
    }),
  );
}

const spansWithProject = spanBatches();
const spans = withoutProjectAttribute(spansWithProject);
const timeIds = withTimeOrderedIds(spans);
const allVariants = [
  { label: 'native', write: (s, b) => s.ingestCalls('bench', b), batches: nativeBatches },
  { label: 'spans', write: (s, b) => s.ingestSpanCalls('bench', b), batches: spans },
  ...(Baseline === undefined
    ? []
    : [
        {
          label: 'spans, baseline build',
          Storage: Baseline,
          write: (s, b) => s.ingestSpanCalls('bench', b),
          batches: spans,
        },
      ]),
  {
    label: 'spans, usage attributes kept',
    write: (s, b) => s.ingestSpanCalls('bench', b),
    batches: withUsageAttributes(spans),
  },
  {
    label: 'spans, no roll-up',
    write: (s, b) =>
      s.ingestCalls(
        'bench',
        b.map((put) => put.call),
      ),
    batches: spans,
  },
  { label: 'spans, time ids', write: (s, b) => s.ingestSpanCalls('bench', b), batches: timeIds },
  {
    label: 'spans, with weft.project',
    write: (s, b) => s.ingestSpanCalls('bench', b),
    batches: spansWithProject,
  },
  { label: 'spans, 2 terms', write: (s, b) => s.ingestSpanCalls('bench', b), batches: withTwoTerms(spans) },
  {
    label: 'spans, time ids + 2 terms',
    write: (s, b) => s.ingestSpanCalls('bench', b),
    batches: withTwoTerms(timeIds),
  },
];

const variants = args.only ? allVariants.filter((v) => args.only.includes(v.label)) : allVariants;
process.stdout.write(
  `ingest-otlp-parts: ${records} calls per variant, batches of ${batchSize}, ${args.rounds} rounds, load ${os.loadavg()[0].toFixed(1)}\n`,
);
const perCall = new Map(variants.map((v) => [v.label, []]));
for (let round = 0; round < Number(args.rounds); round++) {
  for (const variant of variants) {
    const dir = await mkdtemp(join(tmpdir(), 'weft-bench-otlp-parts-'));
    const storage = new (variant.Storage ?? SqliteStorage)({ path: join(dir, 'weft.db') });
    try {
      const before = process.cpuUsage();
      for (const batch of variant.batches) await variant.write(storage, batch);
      await storage.close();
      const cpu = process.cpuUsage(before);
      perCall.get(variant.label).push((cpu.user + cpu.system) / records);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  process.stdout.write(`round ${round + 1} done, load ${os.loadavg()[0].toFixed(1)}\n`);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const native = perCall.has('native') ? median(perCall.get('native')) : Number.NaN;
process.stdout.write(
  '\n| Variant | CPU µs per call (median) | Runs | Calls per CPU-s | vs native |\n| --- | ---: | --- | ---: | ---: |\n',
);
for (const [label, runs] of perCall) {
  const m = median(runs);
  process.stdout.write(
    `| ${label} | ${m.toFixed(1)} | ${runs.map((r) => r.toFixed(1)).join(', ')} | ${Math.round(1e6 / m).toLocaleString('en-US')} | ${Math.round((100 * native) / m)}% |\n`,
  );
}
process.stdout.write(`load after: ${os.loadavg()[0].toFixed(1)}\n`);
