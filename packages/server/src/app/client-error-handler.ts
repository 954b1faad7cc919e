import type { Socket } from 'node:net';
import { codeForStatus } from '../http/index.js';

/** What Node's HTTP parser reports, by `error.code`, and how it is answered. */
const PARSER_STATUS: Readonly<Record<string, { status: number; reason: string; message: string }>> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    message: 'The request line and headers exceed the size limit; shorten the URL or the headers.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    message: 'The request took too long to arrive.',
  },
};

/**
 * Answers a request Node's HTTP parser rejected before Fastify saw it (a URL
 * or headers past the size limit, bytes that are not HTTP) with an
 * `errorResponse` body and `Connection: close`, then ends the socket. The
 * client's keep-alive pool must not reuse a socket the server is closing.
 * The message is fixed: the offending bytes are never echoed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const known = error.code === undefined ? undefined : PARSER_STATUS[error.code];
  const { status, reason, message } = known ?? {
    status: 400,
    reason: 'Bad Request',
    message: 'The request is not valid HTTP/1.1.',
  };
  const body = JSON.stringify({ error: { code: codeForStatus(status), message } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
