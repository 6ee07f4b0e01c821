/**
 * Announcements (docs/domain.md#announcements): what the admin sends to publish one, and what the API answers to the
 * admin and to the readers. The content is HTML; the API sanitises it when saving and when serving.
 */
import { z } from 'zod';
import { EXPIRING_SOON_HOURS } from '../constants';
import { ANNOUNCEMENT_FORM, FIELD_RULES } from '../messages';
import { boundedInt, switchField } from './configFields';
import { optionalCalendarDate, requiredText } from './common';
import { TICKET_PRIORITIES } from './tickets';

export const ANNOUNCEMENT_TYPES = ['info', 'warning', 'success', 'error'] as const;
export const ANNOUNCEMENT_PRIORITIES = TICKET_PRIORITIES;
/** Announcements are read by the roles below admin. */
export const ANNOUNCEMENT_ROLES = ['manager', 'reseller', 'dealer'] as const;
export const ANNOUNCEMENT_STATES = ['active', 'scheduled', 'expired', 'inactive'] as const;
export type AnnouncementType = (typeof ANNOUNCEMENT_TYPES)[number];
export type AnnouncementPriority = (typeof ANNOUNCEMENT_PRIORITIES)[number];
export type AnnouncementRole = (typeof ANNOUNCEMENT_ROLES)[number];
export type AnnouncementState = (typeof ANNOUNCEMENT_STATES)[number];

export const ANNOUNCEMENT_TITLE_MAX = 255;
export const ANNOUNCEMENT_CONTENT_MAX = 20_000;
export const ANNOUNCEMENT_TARGET_USERS_MAX = 500;

/** The visible text of an HTML fragment (tags dropped, entities of spaces as spaces). */
export const htmlText = (html: string): string =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;|&#160;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** The first `max` characters of the visible text, with an ellipsis when cut (list previews, banner). */
export const previewText = (html: string, max: number): string => {
  const text = htmlText(html)
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
};

/** Expires within EXPIRING_SOON_HOURS from `now` (and has not expired yet). */
export const isExpiringSoon = (expiresAt: string | null, now: number = Date.now()): boolean => {
  if (!expiresAt) return false;
  const left = Date.parse(expiresAt) - now;
  return left > 0 && left <= EXPIRING_SOON_HOURS * 3_600_000;
};

/** Where an announcement stands at `now`: inactive (switched off), scheduled, expired or active. */
export const announcementState = (a: { is_active: boolean; starts_at: string | null; expires_at: string | null }, now: number = Date.now()): AnnouncementState => {
  if (a.expires_at && Date.parse(a.expires_at) <= now) return 'expired';
  if (!a.is_active) return 'inactive';
  if (a.starts_at && Date.parse(a.starts_at) > now) return 'scheduled';
  return 'active';
};

const userIdValue = boundedInt(ANNOUNCEMENT_FORM.usersInvalid, 1);

/** POST and PUT /announcements. Empty target roles: everyone; target users narrow their role. */
export const announcementBody = z
  .object({
    title: requiredText(ANNOUNCEMENT_FORM.titleRequired, ANNOUNCEMENT_TITLE_MAX),
    content: requiredText(ANNOUNCEMENT_FORM.contentRequired, ANNOUNCEMENT_CONTENT_MAX).refine((html) => htmlText(html) !== '', ANNOUNCEMENT_FORM.contentRequired),
    type: z.enum(ANNOUNCEMENT_TYPES, { error: ANNOUNCEMENT_FORM.typeInvalid }).default('info'),
    priority: z.enum(ANNOUNCEMENT_PRIORITIES, { error: ANNOUNCEMENT_FORM.priorityInvalid }).default('medium'),
    target_roles: z
      .array(z.unknown(), { error: ANNOUNCEMENT_FORM.rolesInvalid })
      .nullish()
      .transform((roles, ctx): AnnouncementRole[] => {
        const list = roles ?? [];
        if (!list.every((r) => (ANNOUNCEMENT_ROLES as readonly unknown[]).includes(r))) {
          ctx.addIssue({ code: 'custom', message: ANNOUNCEMENT_FORM.rolesInvalid });
          return z.NEVER;
        }
        return [...new Set(list as AnnouncementRole[])];
      }),
    target_users: z
      .array(z.unknown(), { error: ANNOUNCEMENT_FORM.usersInvalid })
      .nullish()
      .transform((ids, ctx): number[] => {
        const list = ids ?? [];
        const parsed = list.map((id) => userIdValue.safeParse(id));
        if (list.length > ANNOUNCEMENT_TARGET_USERS_MAX || parsed.some((p) => !p.success)) {
          ctx.addIssue({ code: 'custom', message: ANNOUNCEMENT_FORM.usersInvalid });
          return z.NEVER;
        }
        return [...new Set(parsed.map((p) => p.data as number))].sort((a, b) => a - b);
      }),
    is_active: switchField(FIELD_RULES.boolean('Active')).default(true),
    starts_at: optionalCalendarDate('start'),
    expires_at: optionalCalendarDate('end'),
  })
  .superRefine((body, ctx) => {
    if (body.starts_at && body.expires_at && body.expires_at <= body.starts_at) {
      ctx.addIssue({ code: 'custom', message: ANNOUNCEMENT_FORM.expiresAfterStart, path: ['expires_at'] });
    }
    if (body.target_users.length > 0 && body.target_roles.length === 0) {
      ctx.addIssue({ code: 'custom', message: ANNOUNCEMENT_FORM.usersNeedRole, path: ['target_users'] });
    }
  });
export type AnnouncementBody = z.infer<typeof announcementBody>;

// ---- answers ----

const userRef = z.object({ id: z.number(), name: z.string(), username: z.string(), role: z.string() });

export const announcementSchema = z.object({
  id: z.number(),
  title: z.string(),
  /** Sanitised HTML. */
  content: z.string(),
  type: z.enum(ANNOUNCEMENT_TYPES),
  priority: z.enum(ANNOUNCEMENT_PRIORITIES),
  target_roles: z.array(z.enum(ANNOUNCEMENT_ROLES)),
  target_users: z.array(z.number()),
  is_active: z.boolean(),
  starts_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  status: z.enum(ANNOUNCEMENT_STATES),
  expiring_soon: z.boolean(),
  creator: z.object({ id: z.number(), name: z.string(), username: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Announcement = z.infer<typeof announcementSchema>;

/** The admin's view of one: the chosen users named. */
export const announcementDetailSchema = announcementSchema.extend({ target_user_details: z.array(userRef) });
export type AnnouncementDetail = z.infer<typeof announcementDetailSchema>;

/** A reader's view: whether the caller has opened it. */
export const userAnnouncementSchema = announcementSchema.omit({ target_users: true }).extend({ is_read: z.boolean(), is_new: z.boolean() });
export type UserAnnouncement = z.infer<typeof userAnnouncementSchema>;

export const announcementStatsSchema = z.object({
  total: z.number(),
  active: z.number(),
  scheduled: z.number(),
  expired: z.number(),
  inactive: z.number(),
});
export type AnnouncementStats = z.infer<typeof announcementStatsSchema>;

export const targetUserSchema = userRef;
export type TargetUser = z.infer<typeof targetUserSchema>;
