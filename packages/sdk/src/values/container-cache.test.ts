import { decodeMsgpack } from '@weft/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EncodeTimeDedup } from '../dedup/encode-time-dedup.js';
import { KnownValues } from '../dedup/known-values.js';
import { sourceDigest } from '../dedup/value-item.js';
import { ValueMarkers } from '../dedup/value-markers.js';
import { encodeIfSafe, releaseEncoded } from './safe-encoder.js';
import { snapshotTape } from './snapshot.js';
import type { SanitizeOptions } from './sanitize-options.js';

interface Message {
  role: string;
  content: string;
  meta: { n: number; tags: string[]; deep: { note: string } };
}

/** A conversation and a tool list the caller keeps and passes to every call, as an agent does. */
interface State {
  messages: Message[];
  tools: { name: string; schema: { type: string; required: string[] } }[];
}

const newMessage = (seed: number, size: number): Message => ({
  role: seed % 2 === 0 ? 'user' : 'assistant',
  content: `${seed}:${'lorem ipsum dolor sit amet '.repeat(Math.ceil(size / 27))}`.slice(0, size),
  meta: { n: seed, tags: [`t${seed}`], deep: { note: `note ${seed}` } },
});

/** What the caller may do to its containers between two calls. */
type Mutation =
  | { kind: 'push'; seed: number }
  | { kind: 'replace'; at: number; seed: number }
  | { kind: 'pop' }
  | { kind: 'field'; at: number; content: string }
  | { kind: 'nested'; at: number; n: number }
  | { kind: 'deepest'; at: number; note: string }
  | { kind: 'tag'; at: number; tag: string }
  | { kind: 'reorder'; at: number }
  | { kind: 'tool'; name: string }
  | { kind: 'none' };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('push' as const), seed: fc.nat(50) }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(20), seed: fc.nat(50) }),
  fc.record({ kind: fc.constant('pop' as const) }),
  fc.record({ kind: fc.constant('field' as const), at: fc.nat(20), content: fc.string({ maxLength: 30 }) }),
  fc.record({ kind: fc.constant('nested' as const), at: fc.nat(20), n: fc.integer() }),
  fc.record({ kind: fc.constant('deepest' as const), at: fc.nat(20), note: fc.string({ maxLength: 10 }) }),
  fc.record({ kind: fc.constant('tag' as const), at: fc.nat(20), tag: fc.string({ maxLength: 5 }) }),
  fc.record({ kind: fc.constant('reorder' as const), at: fc.nat(20) }),
  fc.record({ kind: fc.constant('tool' as const), name: fc.string({ maxLength: 8 }) }),
  fc.constant({ kind: 'none' as const }),
);

function apply(state: State, m: Mutation, size: number): void {
  const { messages } = state;
  const item = messages.length === 0 ? undefined : messages[(m as { at?: number }).at! % messages.length];
  switch (m.kind) {
    case 'push':
      messages.push(newMessage(m.seed, size));
      break;
    case 'replace':
      if (messages.length > 0) messages[m.at % messages.length] = newMessage(m.seed, size);
      break;
    case 'pop':
      messages.pop();
      break;
    case 'field':
      if (item) item.content = m.content;
      break;
    case 'nested':
      if (item) item.meta.n = m.n;
      break;
    case 'deepest':
      if (item) item.meta.deep.note = m.note;
      break;
    case 'tag':
      item?.meta.tags.push(m.tag);
      break;
    case 'reorder':
      if (item) {
        // The same keys in another order: another encoding.
        const { role } = item;
        delete (item as Partial<Message>).role;
        item.role = role;
      }
      break;
    case 'tool':
      (state.tools[0] as State['tools'][number]).schema.required.push(m.name);
      break;
    case 'none':
      break;
  }
}

/** A record as the pipeline encodes it: the call's inputs as a tape, with or without its containers' origins. */
function record(state: State, withOrigins: boolean): unknown {
  return {
    type: 'complete',
    inputs: snapshotTape(
      { input: { messages: state.messages, tools: state.tools, step: 1 } },
      undefined,
      withOrigins,
    ),
    output: 'ok',
  };
}

/** Encodes a record and returns its decoded value and what the dedup noted for it (digests of sources and sends). */
function encode(value: unknown, dedup?: EncodeTimeDedup, options?: SanitizeOptions) {
  dedup?.begin();
  const bytes = encodeIfSafe(value, options, Number.POSITIVE_INFINITY, dedup);
  if (bytes === undefined) {
    dedup?.abort();
    return undefined;
  }
  const noted = dedup?.finish();
  const result = {
    decoded: decodeMsgpack(bytes),
    hex: Buffer.from(bytes).toString('hex'),
    sources: noted?.sources.map(sourceDigest) ?? [],
    sent: noted?.send.map((s) => s.digest) ?? [],
  };
  releaseEncoded(bytes);
  return result;
}

const makeDedup = (threshold: number) => {
  const known = new KnownValues(10_000);
  return { known, dedup: new EncodeTimeDedup(new ValueMarkers(threshold, known)) };
};

describe('repeated containers encoded once', () => {
  it('records every mutation between calls exactly as an uncached encode does, at any depth', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(mutation, { maxLength: 3 }), { minLength: 2, maxLength: 12 }),
        fc.constantFrom(40, 400),
        fc.boolean(),
        (rounds, size, forget) => {
          const state: State = {
            messages: [newMessage(1, size), newMessage(2, size)],
            tools: [{ name: 'search', schema: { type: 'object', required: ['q'] } }],
          };
          // Two clients' worth of dedup in the same state: one fed tapes with origins (cached), one without.
          const cached = makeDedup(256);
          const plain = makeDedup(256);
          for (const mutations of rounds) {
            for (const m of mutations) apply(state, m, size);
            const expected = encode(record(state, false), plain.dedup);
            const actual = encode(record(state, true), cached.dedup);
            expect(actual).toEqual(expected);
            // The server lost a value: both must send it again when next referred to.
            if (forget && expected !== undefined && expected.sources.length > 0) {
              const digest = expected.sources[0] as string;
              cached.known.forget(digest);
              plain.known.forget(digest);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('applies the rules of each record: a container cached without redaction is redacted once its key is', () => {
    const tools = [{ name: 'search', region: 'eu-west-1', schema: { type: 'object' } }];
    const loose: SanitizeOptions = { redactKeys: new Set<string>() };
    const strict: SanitizeOptions = { redactKeys: new Set(['region']) };
    const value = () => ({ inputs: snapshotTape({ input: { tools } }, undefined, true) });
    for (let i = 0; i < 3; i++)
      expect(encode(value(), undefined, loose)?.decoded).toMatchObject({
        inputs: { input: { tools: [{ region: 'eu-west-1' }] } },
      });
    // The safe encoder refuses a redacted key: the record goes to the Sanitizer, which redacts it.
    expect(encode(value(), undefined, strict)).toBeUndefined();
  });

  it("sends a cached container's value again when the server lost it, and only then", () => {
    const { known, dedup } = makeDedup(64);
    const messages = [newMessage(1, 200), newMessage(2, 200)];
    const value = () => ({ inputs: snapshotTape({ input: { messages } }, undefined, true) });
    const first = encode(value(), dedup);
    expect(first?.sent.length).toBeGreaterThan(0);
    // Seen twice, then cached: referred to, not sent.
    expect(encode(value(), dedup)?.sent).toEqual([]);
    expect(encode(value(), dedup)?.sent).toEqual([]);
    for (const digest of first?.sent ?? []) known.forget(digest);
    const again = encode(value(), dedup);
    expect(again?.sent).toEqual(first?.sent);
    expect(again?.sources).toEqual(first?.sources);
  });
});
