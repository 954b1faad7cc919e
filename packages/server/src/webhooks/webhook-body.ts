import type { AlertEvent } from '@weft/protocol';

const ICON: Record<AlertEvent['state'], string> = {
  ok: ':white_check_mark:',
  warning: ':warning:',
  critical: ':rotating_light:',
  nodata: ':grey_question:',
};

/**
 * The body a webhook receives for an alert event. `json`: `{ id, ...event }`,
 * `id` naming the event (a receiver that got a retry of a delivery it had
 * processed can drop it). `slack`: what Slack's incoming webhooks (and
 * Mattermost, Rocket.Chat, Discord's `/slack` endpoints) accept: `text`
 * with the line and the link, and the same as a block.
 */
export function webhookBody(format: 'json' | 'slack', id: string, event: AlertEvent): unknown {
  if (format === 'json') return { id, ...event };
  const title = event.state === 'ok' && event.previous !== 'ok' ? 'recovered' : event.state;
  const link = event.callsUrl === undefined ? '' : ` <${event.callsUrl}|calls>`;
  const text = `${ICON[event.state]} *${event.project} / ${event.rule}* ${title}: ${event.message}${link}`;
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}
