#!/usr/bin/env node
// Finding a large string the SDK has seen (values sent once skip writing it):
// a Map keyed by the string against the SDK's StringMemo, per lookup (µs),
// in one process, alternating. V8 hashes a string longer than 16,383
// characters by its length alone, so in a Map the same-length strings share
// a bucket and each lookup compares them up to their first difference.
//   - template: 32 texts of ~30 KB from one prompt template with a fixed-width tail
//   - distinct: 64 unrelated texts of 12–28 KB (4 lengths), looked up by identity
//   - copy: an equal copy of an 80 KB text (a freshly decoded response): one full comparison either way
//
//   node bench/string-lookup.mjs
import { loadavg } from 'node:os';
import { benchText } from './lib/bench-server.mjs';
import { bundleSources, src } from './lib/bundle-sources.mjs';

const { StringMemo } = await bundleSources(
  'string-lookup',
  `export { StringMemo } from ${src('packages/sdk/src/dedup/string-memo.ts')};`,
);

const prefix = `You are a support agent. Policy: ${'lorem ipsum dolor sit amet '.repeat(1_100)}`;
const cases = {
  template: Array.from({ length: 32 }, (_, i) => `${prefix}${String(i).padStart(6, '0')}`),
  distinct: Array.from({ length: 64 }, (_, i) => benchText(i, [12_288, 16_384, 24_576, 28_671][i % 4])),
  copy: Array.from({ length: 8 }, (_, i) => benchText(1_000 + i, 81_920)),
};

function perLookupUs(lookup, keys) {
  const n = 2_000;
  const t0 = performance.now();
  let found = 0;
  for (let i = 0; i < n; i++) if (lookup(keys[i % keys.length]) !== undefined) found++;
  if (found !== n) throw new Error('a remembered string was not found');
  return ((performance.now() - t0) * 1000) / n;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`load average ${loadavg()[0].toFixed(2)}`);
console.log('| Case | Map µs per lookup | StringMemo µs per lookup |');
console.log('| --- | ---: | ---: |');
for (const [name, texts] of Object.entries(cases)) {
  const map = new Map();
  const memo = new StringMemo(8 * 1024 * 1024, 2 * 1024 * 1024);
  texts.forEach((text, i) => {
    map.set(text, i);
    memo.set(text, i);
  });
  const keys = name === 'copy' ? texts.map((text) => Buffer.from(text).toString()) : texts;
  const mapUs = [];
  const memoUs = [];
  for (let round = 0; round < 7; round++) {
    mapUs.push(perLookupUs((s) => map.get(s), keys));
    memoUs.push(perLookupUs((s) => memo.get(s), keys));
  }
  console.log(`| ${name} | ${median(mapUs.slice(2)).toFixed(2)} | ${median(memoUs.slice(2)).toFixed(2)} |`);
}
