/**
 * The daily e-mail digest: a user's e-mail deliveries wait for the next digest hour (UTC, set with
 * the SMTP server) and go out together as one message, grouped by event type.
 */
import { NOTIFICATIONS, NOTIFICATION_TYPES, type NotificationType, isPanelUrl } from '../../src/contract';

/** The first digest hour strictly after `now`. */
export function nextDigestAt(now: Date, hour: number): Date {
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour));
  if (at.getTime() <= now.getTime()) at.setUTCDate(at.getUTCDate() + 1);
  return at;
}

export interface DigestItem {
  type: NotificationType;
  title: string;
  text: string;
  link: string | null;
  created_at: string;
}

export interface Digest {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * One message for the items, a section per event type in the contract's order. With the panel's
 * public address each item that has a panel path links to it, and the message ends with a link to
 * the Notifications page; without one the message has no links.
 */
export function buildDigest(items: DigestItem[], panelUrl: string | null): Digest {
  const base = panelUrl && isPanelUrl(panelUrl) ? panelUrl.replace(/\/+$/, '') : null;
  const groups = NOTIFICATION_TYPES.map((type) => ({ type, items: items.filter((i) => i.type === type) })).filter((g) => g.items.length > 0);
  const link = (i: DigestItem) => (i.link && base ? `${base}${i.link}` : null);
  const all = base ? `${base}/notifications` : null;
  const text = [
    NOTIFICATIONS.digestIntro(items.length),
    ...groups.flatMap((g) => [
      '',
      `${NOTIFICATIONS.types[g.type]} (${g.items.length})`,
      ...g.items.map((i) => `- ${g.type === 'announcement' ? `${i.title}: ` : ''}${i.text}${link(i) ? ` ${link(i)}` : ''}`),
    ]),
    ...(all ? ['', `${NOTIFICATIONS.openPage}: ${all}`] : []),
  ].join('\n');
  const anchor = (href: string, label: string) => `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
  const html = [
    `<p>${escapeHtml(NOTIFICATIONS.digestIntro(items.length))}</p>`,
    ...groups.map(
      (g) =>
        `<h3>${escapeHtml(NOTIFICATIONS.types[g.type])} (${g.items.length})</h3><ul>${g.items
          .map((i) => {
            const href = link(i);
            return `<li>${g.type === 'announcement' ? `<strong>${escapeHtml(i.title)}</strong>: ` : ''}${escapeHtml(i.text)}${href ? ` ${anchor(href, NOTIFICATIONS.digestOpen)}` : ''}</li>`;
          })
          .join('')}</ul>`,
    ),
    ...(all ? [`<p>${anchor(all, NOTIFICATIONS.openPage)}</p>`] : []),
  ].join('');
  return { subject: NOTIFICATIONS.digestSubject(items.length), text, html };
}
