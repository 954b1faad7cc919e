import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from './is-loopback.js';

describe('isLoopbackHost', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    'localhost',
    'LOCALHOST',
    'app.localhost',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
  ])('treats %s as loopback', (host) => expect(isLoopbackHost(host)).toBe(true));
  it.each([
    '0.0.0.0',
    '::',
    '10.0.0.1',
    '128.0.0.1',
    '::ffff:10.0.0.1',
    'example.com',
    '127.0.0.1.example.com',
    '',
  ])('treats %s as reachable from elsewhere', (host) => expect(isLoopbackHost(host)).toBe(false));
});
