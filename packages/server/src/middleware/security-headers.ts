import type { onSendHookHandler } from 'fastify';

/**
 * The web UI's Content Security Policy: its own scripts, styles and API only
 * (no inline script, no other origin), images also from `data:` and `blob:`
 * URLs, no plugins, and never inside a frame (`frame-ancestors 'none'`:
 * another site cannot overlay the UI to trick clicks on feedback, labels or
 * add-to-dataset). Sent on every response: an API answer is not a page.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Adds to every response: the CSP above, `X-Frame-Options: DENY` (frame
 * protection for browsers without `frame-ancestors`), `X-Content-Type-Options:
 * nosniff` (a file or JSON answer is never run as a script or a page) and
 * `Referrer-Policy: no-referrer` (URLs naming projects and calls do not leak
 * to links followed out of the UI).
 */
export function securityHeaders(): onSendHookHandler {
  return (_request, reply, payload, done) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    done(null, payload);
  };
}
