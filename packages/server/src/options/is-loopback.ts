import { isIP } from 'node:net';

/**
 * True when `host` can only be reached from this machine: `localhost`,
 * 127.0.0.0/8, `::1` (bracketed or not) and IPv4-mapped 127.x addresses.
 * `0.0.0.0` and `::` listen on every interface, so they are not loopback.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) {
    if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
    return mapped?.[1]?.startsWith('127.') === true;
  }
  return false;
}
