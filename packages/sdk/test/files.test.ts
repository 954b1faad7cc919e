import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { digestBytes, parseRef } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import {
  detectMimeType,
  FILE_CHANNEL,
  type FileEvent,
  hashBytes,
  InvalidFileError,
  WeftFile,
} from '../src/files/index.js';
import { startRequestLogProxy } from './eval/fixtures/request-log-proxy.js';
import { FaultProxy, useFileServer } from './support/index.js';

const FILE_REF = /^weft:\/\/\/files\/file\/[A-Za-z0-9_-]{43}$/;
const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);

const server = useFileServer();
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weft-files-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function init(url = server.url, extra: Partial<weft.WeftOptions> = {}) {
  return weft.init({ project: 'files', url, outbox: false, handleExit: false, ...extra });
}

async function onlyCall(client: weft.WeftClient, opName: string) {
  const calls = await client.getCalls({ opName }).toArray();
  expect(calls).toHaveLength(1);
  return calls[0] as NonNullable<(typeof calls)[0]>;
}

describe('blobs in calls', () => {
  it('a Buffer and a Float32Array in the output become file refs whose bytes the server holds', async () => {
    const client = init();
    const buffer = Buffer.alloc(4096, 7);
    buffer.write('header', 0);
    const floats = new Float32Array([1.5, -2.25, 3e9, Number.NaN]);
    const embedOp = weft.op(function embed(text: string) {
      return { text, buffer, floats, small: Buffer.alloc(0) };
    });
    embedOp('hello');
    expect((await client.flush()).failed).toBe(0);

    const call = await onlyCall(client, 'embed');
    const output = call.output as Record<string, unknown>;
    expect(output.text).toBe('hello');
    expect(output.buffer).toMatch(FILE_REF);
    expect(output.floats).toMatch(FILE_REF);
    // Empty data stays inline: a file of nothing would only cost a request.
    expect(output.small).toMatchObject({ _weft: 'binary', byteLength: 0 });

    const bufferRef = parseRef(output.buffer as string);
    expect(bufferRef.kind === 'file' && bufferRef.digest).toBe(digestBytes(buffer));
    const got = (await client.get(output.buffer as string)) as Uint8Array;
    expect(got).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(got).equals(buffer)).toBe(true);
    // The server's own route answers the same bytes (not only the SDK's reading of them).
    const floatRef = parseRef(output.floats as string);
    const raw = await fetch(
      `${server.url}/v1/files/files/${floatRef.kind === 'file' ? floatRef.digest : ''}`,
    );
    expect(raw.status).toBe(200);
    expect(new Float32Array(await raw.arrayBuffer())).toEqual(floats);
  });

  it('the same bytes in 100 calls are uploaded once', async () => {
    const proxy = await startRequestLogProxy(server.url);
    afterAll(() => proxy.close());
    const client = init(proxy.url);
    const image = Buffer.alloc(64 * 1024, 3);
    image.write(`unique-${Date.now()}`);
    const renderOp = weft.op(function render(i: number) {
      return { i, image: Buffer.from(image) };
    });
    for (let i = 0; i < 100; i++) renderOp(i);
    const result = await client.flush();
    expect(result.failed).toBe(0);

    const posts = proxy.requests.filter((r) => r.method === 'POST' && r.path === '/v1/files/files');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.bytes).toBe(image.byteLength);
    const calls = await client.getCalls({ opName: 'render' }).toArray();
    expect(calls).toHaveLength(100);
    const refs = new Set(calls.map((c) => (c.output as { image: string }).image));
    expect([...refs]).toEqual([`weft:///files/file/${digestBytes(image)}`]);
  });

  it('hashes a 20 MB Buffer off the caller turn, in slices with the event loop turning between them', async () => {
    const client = init();
    const big = Buffer.alloc(20 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4096) big[i] = i % 251;
    const order: string[] = [];
    const slicesSeen: number[] = [];
    let slices = 0;
    const listener = (message: unknown) => {
      const event = message as FileEvent;
      if (event.bytes !== big.byteLength && event.event !== 'hash-slice') return;
      if (event.event === 'hash-slice') slices++;
      else order.push(event.event);
    };
    subscribe(FILE_CHANNEL, listener);
    afterAll(() => {
      unsubscribe(FILE_CHANNEL, listener);
    });
    const produceOp = weft.op(function produce() {
      return big;
    });
    produceOp();
    order.push('op returned');
    // While the hash runs, other callbacks get turns: sample the slice count on each turn.
    let done = false;
    const sampler = (async () => {
      while (!done) {
        slicesSeen.push(slices);
        await nextTurn();
      }
    })();
    await client.flush();
    done = true;
    await sampler;

    expect(order.slice(0, 2)).toEqual(['op returned', 'hash-start']);
    expect(order).toContain('hashed');
    expect(slices).toBe(20);
    // Some turn of the loop ran between the first and the last slice.
    expect(slicesSeen.some((n) => n > 0 && n < 20)).toBe(true);
    const output = (await onlyCall(client, 'produce')).output as string;
    expect(output).toBe(`weft:///files/file/${digestBytes(big)}`);
  });

  it('a file by path records a File object with its mime type, detected from the magic bytes', async () => {
    const client = init();
    const pngPath = join(dir, 'chart'); // no extension: only the bytes say PNG
    await writeFile(pngPath, PNG);
    const gifPath = join(dir, 'mislabelled.jpg');
    await writeFile(gifPath, Buffer.from('GIF89a\x01\x00\x01\x00'));
    const notePath = join(dir, 'note.txt');
    await writeFile(notePath, 'plain words');
    const drawOp = weft.op(function draw(file: WeftFile) {
      return {
        chart: file,
        gif: WeftFile.fromPath(gifPath),
        note: WeftFile.fromPath(notePath),
        given: WeftFile.fromBytes(new Uint8Array([1, 2, 3]), { mimeType: 'audio/wav', name: 'take.wav' }),
      };
    });
    drawOp(WeftFile.fromPath(pngPath));
    expect((await client.flush()).failed).toBe(0);

    const call = await onlyCall(client, 'draw');
    const inputRef = call.inputs.file as string;
    expect(inputRef).toMatch(/^weft:\/\/\/files\/object\/File:/);
    const info = (await client.get(inputRef)) as Record<string, unknown>;
    expect(info).toEqual({
      file: `weft:///files/file/${digestBytes(PNG)}`,
      mimeType: 'image/png',
      size: PNG.byteLength,
      name: 'chart',
    });
    expect(Buffer.from((await client.get(info.file as string)) as Uint8Array).equals(PNG)).toBe(true);
    // The same file in the output is the same version.
    const output = call.output as Record<string, string>;
    expect(output.chart).toBe(inputRef);
    expect(await client.get(output.gif as string)).toMatchObject({
      mimeType: 'image/gif',
      name: 'mislabelled.jpg',
    });
    expect(await client.get(output.note as string)).toMatchObject({ mimeType: 'text/plain', size: 11 });
    expect(await client.get(output.given as string)).toMatchObject({
      mimeType: 'audio/wav',
      name: 'take.wav',
      size: 3,
    });
  });

  it('a file the server refuses is reported (its ref never resolves to other bytes); a path that cannot be read is a marker', async () => {
    const proxy = await FaultProxy.start({
      upstream: server.url,
      match: ({ path }) => path.startsWith('/v1/files/'),
    });
    afterAll(() => proxy.close());
    proxy.respond(400);
    const client = init(proxy.url);
    const refuseOp = weft.op(function refuse() {
      return {
        blob: Buffer.from('refused bytes'),
        missing: WeftFile.fromPath(join(dir, 'does-not-exist.png')),
        kept: 1,
      };
    });
    const problems = client.diagnostics().problems;
    refuseOp();
    await client.flush();
    const output = (await onlyCall(client, 'refuse')).output as Record<string, unknown>;
    expect(output.kept).toBe(1);
    // The ref is the digest of the bytes, known before the upload; the refusal is reported once.
    expect(output.blob).toBe(`weft:///files/file/${digestBytes(Buffer.from('refused bytes'))}`);
    expect(client.diagnostics().problems).toBeGreaterThan(problems);
    proxy.passThrough();
    await expect(client.get(output.blob as string)).rejects.toMatchObject({ code: 'WEFT_NOT_FOUND' });
    expect(output.missing).toMatchObject({ _weft: 'unreadable', reason: 'hook' });
    expect(String((output.missing as { error: string }).error)).toContain('does-not-exist.png');
  });
});

describe('file edge cases', () => {
  it('bytes changed after hashing and before upload: the ref names the hashed bytes, never other bytes, and the change is reported', async () => {
    const client = init();
    const mutable = Buffer.from(`mutable ${process.pid} ${Date.now()}`);
    const hashedDigest = digestBytes(mutable);
    const listener = (message: unknown) => {
      const event = message as FileEvent;
      // The caller changes its Buffer between the hash and the upload.
      if (event.event === 'hashed' && event.bytes === mutable.byteLength) mutable[0] = 0x4d;
    };
    subscribe(FILE_CHANNEL, listener);
    afterAll(() => {
      unsubscribe(FILE_CHANNEL, listener);
    });
    const mutateOp = weft.op(function mutate() {
      return mutable;
    });
    const problems = client.diagnostics().problems;
    mutateOp();
    await client.flush();
    const output = (await onlyCall(client, 'mutate')).output as string;
    expect(output).toBe(`weft:///files/file/${hashedDigest}`);
    expect(client.diagnostics().problems).toBeGreaterThan(problems);
    await expect(client.get(output)).rejects.toMatchObject({ code: 'WEFT_NOT_FOUND' });
  });

  it('publish of a weft.WeftFile stores its bytes and a File version; an empty file works too', async () => {
    const client = init();
    const ref = await client.publish(WeftFile.fromBytes(PNG, { name: 'logo' }));
    expect(ref.name).toBe('File');
    expect(await client.get(ref)).toEqual({
      file: `weft:///files/file/${digestBytes(PNG)}`,
      mimeType: 'image/png',
      size: PNG.byteLength,
      name: 'logo',
    });
    const empty = await client.publish(WeftFile.fromBytes(new Uint8Array(0)), { name: 'empty-file' });
    const info = (await client.get(empty)) as { file: string; size: number; mimeType: string };
    expect(info).toMatchObject({ size: 0, mimeType: 'application/octet-stream' });
    expect((await client.get(info.file)) as Uint8Array).toHaveLength(0);
    await expect(client.publish(WeftFile.fromPath(join(dir, 'absent.bin')))).rejects.toMatchObject({
      code: 'WEFT_FILE_UNREADABLE',
    });
  });
});

describe('a server that keeps failing', () => {
  it("an upload is retried by the batches' policy, then kept in the outbox, and the flush after the server is back replays it: the call's file ref resolves", async () => {
    const proxy = await FaultProxy.start({
      upstream: server.url,
      match: ({ path }) => path.startsWith('/v1/files/'),
    });
    afterAll(() => proxy.close());
    const client = init(proxy.url, {
      outbox: true,
      outboxDir: join(dir, 'outbox-keeps-failing'),
      maxAttempts: 3,
    });
    const blobOp = weft.op(function blobOut(tag: string) {
      return Buffer.from(`down ${tag} ${process.pid}`);
    });

    proxy.respond(503);
    blobOp('first');
    // The file route keeps failing: the flush delivers the call, keeps the file in the outbox and
    // tries to replay it until its deadline.
    const flushed = await client.flush({ timeoutMs: 1_500 });
    expect(flushed).toMatchObject({ sent: 1, failed: 0, pending: 0, replayed: 0 });
    expect(proxy.counters.injected).toBeGreaterThanOrEqual(3);
    expect(client.diagnostics().outbox?.records).toBe(1);
    const calls = await client.getCalls({ opName: 'blobOut' }).toArray();
    const ref = calls[0]?.output as string;
    expect(ref).toBe(`weft:///files/file/${digestBytes(Buffer.from(`down first ${process.pid}`))}`);

    proxy.passThrough();
    expect(await client.flush()).toMatchObject({ sent: 0, pending: 0, replayed: 1 });
    expect(client.diagnostics().outbox?.records).toBe(0);
    expect(Buffer.from((await client.get(ref)) as Uint8Array).toString()).toBe(`down first ${process.pid}`);
  });
});

describe('files inside objects', () => {
  it('a Buffer field of a weft.WeftObject is a file ref inside the object version', async () => {
    const client = init();
    class Thumbnail extends weft.WeftObject {
      constructor(
        readonly caption: string,
        readonly pixels: Uint8Array,
      ) {
        super();
      }
    }
    const pixels = new Uint8Array([9, 8, 7, 6, 5]);
    const thumbOp = weft.op(function thumb() {
      return new Thumbnail('tiny', pixels);
    });
    thumbOp();
    expect((await client.flush()).failed).toBe(0);
    const ref = (await onlyCall(client, 'thumb')).output as string;
    expect(ref).toMatch(/^weft:\/\/\/files\/object\/Thumbnail:/);
    const value = (await client.get(ref)) as { caption: string; pixels: string };
    expect(value.caption).toBe('tiny');
    expect(value.pixels).toBe(`weft:///files/file/${digestBytes(pixels)}`);
    expect(Array.from((await client.get(value.pixels)) as Uint8Array)).toEqual([9, 8, 7, 6, 5]);
  });
});

describe('file values', () => {
  it('detects PNG, JPEG, GIF and WebP by their magic bytes, then by extension', () => {
    expect(detectMimeType(PNG)).toBe('image/png');
    expect(detectMimeType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(detectMimeType(Buffer.from('GIF87a...'))).toBe('image/gif');
    expect(detectMimeType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(detectMimeType(Buffer.from('RIFF\0\0\0\0WAVE'), 'a.wav')).toBe('audio/wav');
    expect(detectMimeType(Buffer.from('x'), 'photo.JPG')).toBe('image/jpeg');
    expect(detectMimeType(Buffer.from('x'))).toBe('application/octet-stream');
  });

  it('hashBytes equals digestBytes and begins on a later turn', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 5, 9);
    let started = false;
    const hashing = hashBytes(bytes, { onStart: () => (started = true) }, 1024 * 1024);
    expect(started).toBe(false);
    expect(await hashing).toBe(digestBytes(bytes));
    expect(await hashBytes(new Uint8Array(0))).toBe(digestBytes(new Uint8Array(0)));
  });

  it('rejects bad arguments with typed errors naming them', () => {
    expect(() => WeftFile.fromPath('')).toThrow(InvalidFileError);
    expect(() => WeftFile.fromBytes('text' as never)).toThrow(/Invalid file bytes/);
    expect(() => WeftFile.fromBytes(new Uint8Array(1), { mimeType: 'png' })).toThrow(/Invalid file mimeType/);
    try {
      WeftFile.fromPath(42 as never);
    } catch (error) {
      expect(error).toMatchObject({ code: 'WEFT_INVALID_OPTIONS', option: 'path' });
    }
  });

  it('get of a file ref the server lacks is WEFT_NOT_FOUND', async () => {
    const client = init();
    await expect(client.get(`weft:///files/file/${'A'.repeat(43)}`)).rejects.toMatchObject({
      code: 'WEFT_NOT_FOUND',
    });
  });
});
