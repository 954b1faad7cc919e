import { describe, expect, it } from 'vitest';
import { initialHash } from './initial-route.js';

describe('initialHash', () => {
  it('opens ?project=, else the last project, else nothing', () => {
    expect(initialHash('?project=demo', '', ['other'])).toBe('#/demo/traces');
    expect(initialHash('', '', ['recent', 'older'])).toBe('#/recent/traces');
    expect(initialHash('', '#/', ['recent'])).toBeUndefined();
    expect(initialHash('', '#/x/evals', ['recent'])).toBeUndefined();
    expect(initialHash('', '', [])).toBeUndefined();
  });
});
