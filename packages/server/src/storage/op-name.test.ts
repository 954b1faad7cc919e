import { describe, expect, it } from 'vitest';
import { plainOpName } from './op-name.js';

describe('plainOpName', () => {
  it('takes the name out of an op ref and leaves plain names alone', () => {
    const digest = 'A'.repeat(43);
    expect(plainOpName(`weft:///proj/op/chat.completions:${digest}`)).toBe('chat.completions');
    expect(plainOpName(`weft:///proj/op/chat.completions:${digest}`)).toBe('chat.completions');
    expect(plainOpName('my_function')).toBe('my_function');
    expect(plainOpName('weft:///not a ref')).toBe('weft:///not a ref');
  });
});
