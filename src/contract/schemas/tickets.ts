/**
 * Tickets (docs/domain.md#tickets says how they behave): what a user sends to open, change and answer
 * a ticket, and what the API answers. The panel's forms check with these same schemas.
 */
import { z } from 'zod';
import { ROLES } from '../roles';
import { TICKETS } from '../messages';
import { boundedInt } from './configFields';
import { listMetaSchema, requiredText } from './common';

export const TICKET_STATUSES = ['open', 'closed'] as const;
export const TICKET_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

export const TICKET_SUBJECT_MAX = 255;
export const TICKET_MESSAGE_MAX = 5000;

const subject = requiredText(TICKETS.subjectRequired, TICKET_SUBJECT_MAX);
const message = requiredText(TICKETS.messageRequired, TICKET_MESSAGE_MAX);
const categoryId = boundedInt(TICKETS.categoryRequired, 1);
const priority = z.enum(TICKET_PRIORITIES, { error: TICKETS.priorityInvalid });
const status = z.enum(TICKET_STATUSES, { error: TICKETS.statusInvalid });

/** POST /tickets */
export const ticketCreateBody = z.object({
  subject,
  message,
  category_id: categoryId,
  priority: priority.default('medium'),
});
export type TicketCreateBody = z.infer<typeof ticketCreateBody>;

/**
 * PUT /tickets/{id}: any of the fields. Status (close, reopen) and priority: the owner and everyone
 * above it; subject, message and category: the owner only.
 */
export const ticketUpdateBody = z
  .object({
    subject: subject.optional(),
    message: message.optional(),
    category_id: categoryId.optional(),
    priority: priority.optional(),
    status: status.optional(),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), { message: TICKETS.nothingToUpdate, path: ['status'] });
export type TicketUpdateBody = z.infer<typeof ticketUpdateBody>;

/** POST /tickets/{id}/replies */
export const ticketReplyBody = z.object({ message });
export type TicketReplyBody = z.infer<typeof ticketReplyBody>;

// ---- answers ----

const person = z.object({ id: z.number(), name: z.string(), username: z.string(), role: z.enum(ROLES) });

export const ticketSchema = z.object({
  id: z.number(),
  subject: z.string(),
  message: z.string(),
  priority: z.enum(TICKET_PRIORITIES),
  status: z.enum(TICKET_STATUSES),
  category_id: z.number().nullable(),
  category: z.object({ id: z.number(), name: z.string() }).nullable(),
  user_id: z.number(),
  user: person,
  replies_count: z.number(),
  /** The other side wrote after the caller last opened the ticket. */
  is_unread: z.boolean(),
  /** Who wrote last: the owner, or the staff above it. */
  last_activity_side: z.enum(['owner', 'staff']),
  last_activity_at: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  closed_at: z.string().nullable(),
});
export type Ticket = z.infer<typeof ticketSchema>;

export const ticketReplySchema = z.object({
  id: z.number(),
  ticket_id: z.number(),
  message: z.string(),
  user: person,
  /** Written by someone above the ticket's owner. */
  is_staff: z.boolean(),
  created_at: z.string(),
});
export type TicketReply = z.infer<typeof ticketReplySchema>;

export const ticketWithRepliesSchema = ticketSchema.extend({ replies: z.array(ticketReplySchema) });
export type TicketWithReplies = z.infer<typeof ticketWithRepliesSchema>;

/** GET /tickets (docs/api.md#lists): the page nested under data, as Laravel's paginator writes it. */
export const ticketPageSchema = z.object({
  data: z.object({
    data: z.array(ticketSchema),
    ...listMetaSchema.shape,
  }),
});

/** GET /tickets-statistics: the caller's visible tickets. */
export const ticketStatisticsSchema = z.object({
  total: z.number(),
  open: z.number(),
  closed: z.number(),
  unread: z.number(),
  by_priority: z.object({ low: z.number(), medium: z.number(), high: z.number(), urgent: z.number() }),
  by_category: z.array(z.object({ id: z.number().nullable(), name: z.string().nullable(), count: z.number() })),
});
export type TicketStatistics = z.infer<typeof ticketStatisticsSchema>;
