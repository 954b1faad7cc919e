import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress, type ProgressStream } from './progress.js';

function capture(isTTY: boolean): { stream: ProgressStream; text: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY, columns: 160 });
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('createProgress', () => {
  it('draws done/total, errors, rate and ETA on a TTY', () => {
    const { stream, text } = capture(true);
    const progress = createProgress({ total: 10, done: 2, stream });
    progress.advance({ error: false });
    progress.advance({ error: true });
    progress.stop();
    progress.stop();
    progress.advance({ error: true }); // after stop: ignored
    const out = text();
    expect(out).toContain('4/10 rows');
    expect(out).toContain('1 errors');
    expect(out).toMatch(/\d+\.\d\/s/);
    expect(out).toContain('ETA');
  });

  it('writes nothing when the stream is not a TTY', () => {
    const { stream, text } = capture(false);
    const progress = createProgress({ total: 10, stream });
    progress.advance({ error: false });
    progress.stop();
    expect(text()).toBe('');
  });
});
