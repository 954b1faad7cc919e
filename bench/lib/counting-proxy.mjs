// A pass-through HTTP proxy that logs each request's method, path and body
// bytes, so a bench can count what the SDK sends over every route.
import { once } from 'node:events';
import { createServer, request } from 'node:http';

/**
 * A pass-through proxy counting requests and body bytes per request.
 * `delayMs(method, path)`: how long to hold a request before forwarding it
 * (slow acknowledgements, so that batches in flight cross); none by default.
 */
export async function countingProxy(upstream, { delayMs = () => 0 } = {}) {
  const target = new URL(upstream);
  const log = [];
  const server = createServer((req, res) => {
    const entry = { method: req.method, path: (req.url ?? '/').split('?')[0], bytes: 0 };
    log.push(entry);
    req.on('data', (chunk) => {
      entry.bytes += chunk.byteLength;
    });
    const forward = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    const wait = delayMs(entry.method, entry.path);
    if (wait > 0) {
      req.pause();
      setTimeout(() => req.pipe(forward), wait);
    } else req.pipe(forward);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${server.address().port}`, log, close: () => server.close() };
}
