/**
 * Notifications: one run's events (decided by the engine) posted to a webhook as svc-gitops' own
 * JSON or a Slack incoming-webhook body. Nothing here prints; failures come back as warnings.
 */
export { type DeliveryOptions, deliver } from './send.js';
export { eventLine, slackBody, summaryOf } from './summary.js';
export type {
  Notification,
  NotificationEvent,
  NotificationEventName,
  NotifiedSite,
  WebhookFormat,
} from './types.js';
