/**
 * One webhook call: POST of the event as JSON, signed with the user's secret. The receiver checks
 * `X-Signature: sha256=<hex of HMAC-SHA256(secret, timestamp + "." + body)>` with `X-Timestamp`
 * (Unix seconds) and may drop a repeated `X-Notification-Id`. A redirect is never followed: it fails
 * the attempt, so a URL cannot be bounced to another host.
 */
import { createHmac } from 'node:crypto';
import { NOTIFICATIONS } from '../../../src/contract';

export const WEBHOOK_TIMEOUT_MS = 10_000;

export const signature = (secret: string, timestamp: string, body: string) => `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

export async function postWebhook(url: string, secret: string, deliveryId: string, payload: unknown, now: Date): Promise<void> {
  const body = JSON.stringify(payload);
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const res = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    headers: {
      'content-type': 'application/json',
      'user-agent': 'credit-panel-webhook',
      'x-timestamp': timestamp,
      'x-signature': signature(secret, timestamp, body),
      'x-notification-id': deliveryId,
    },
    body,
  });
  await res.body?.cancel().catch(() => {});
  if (res.status < 200 || res.status >= 300) throw new Error(NOTIFICATIONS.webhookStatus(res.status));
}
