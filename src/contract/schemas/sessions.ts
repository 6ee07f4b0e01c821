/** Sessions, sign-in history and view-as on the wire. */
import { z } from 'zod';
import { SIGN_IN_OUTCOMES } from '../sessions';
import { currentUserEntity } from './auth';
import { listMetaSchema } from './common';

/** One signed-in session of the caller (view-as sessions of parents are not the user's own and not listed). */
export const sessionRowEntity = z.object({
  id: z.number(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string(),
  ip_address: z.string().nullable(),
  /** The user agent as a readable browser and system ('Firefox 133 on Windows'). */
  browser: z.string(),
  current: z.boolean(),
});

export const signInEventEntity = z.object({
  id: z.number(),
  created_at: z.string(),
  outcome: z.enum(SIGN_IN_OUTCOMES),
  /** A SIGN_IN_REASONS key. */
  reason: z.string().nullable(),
  ip_address: z.string().nullable(),
  browser: z.string(),
});

export const signInHistoryAnswer = z.object({ data: z.array(signInEventEntity), meta: listMetaSchema });

export const endOthersAnswer = z.object({ message: z.string(), ended: z.number() });

/** POST /view-as/{id}: the view-as session and who it shows. */
export const viewAsAnswer = z.object({ message: z.string(), token: z.string(), user: currentUserEntity });
