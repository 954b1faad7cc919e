import { createHash } from 'node:crypto';

/**
 * The feedback id of one score of one call by one version of a rule: a
 * UUID made from SHA-256 of the four (version 8, RFC 9562's custom layout).
 * A result written twice — a worker killed after writing, then restarted,
 * scores the call again — is the same feedback, stored once.
 */
export function evaluatorFeedbackId(
  project: string,
  rule: string,
  version: number,
  callId: string,
  score: string,
): string {
  const hex = createHash('sha256')
    .update([project, rule, String(version), callId, score].join('\u0000'))
    .digest('hex')
    .slice(0, 32)
    .split('');
  hex[12] = '8';
  hex[16] = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  const text = hex.join('');
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}
