export {
  DELIVERY_KIND,
  DELIVERY_LOG,
  type DeliveryLogEntry,
  type DeliveryPolicy,
  DeliveryQueue,
  type PendingDelivery,
} from './delivery-queue.js';
export { sendWebhook, type WebhookOutcome } from './send-webhook.js';
export { webhookBody } from './webhook-body.js';
