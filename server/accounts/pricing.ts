/**
 * Renewal pricing (decisions file): M months on server S cost the credits_required of an active
 * global discount of S whose validity_months is M, that is within its validity window and has uses
 * left (when global discounts are enabled); otherwise M x default_credits.
 */
import { type Kysely, type Selectable, sql } from 'kysely';
import { type GlobalDiscount, type RenewalQuote, settingNumberOrFallback } from '../../src/contract';
import type { Database, GlobalDiscountsTable } from '../db/schema';
import { bool } from '../db/values';
import { type SystemSettings, getSystemSettings } from '../settings';

export type DiscountRow = Selectable<GlobalDiscountsTable>;

/**
 * Discounts of a server that apply now: active, inside valid_from..valid_until, uses left. The
 * form stores a bare valid_until as the last moment of its day; one stored as a bare date (written
 * by other means) still covers that whole day, hence the equality with today's date.
 */
export function usableDiscounts(db: Kysely<Database>, serverId: number, now: Date) {
  const at = now.toISOString();
  return db
    .selectFrom('global_discounts')
    .selectAll()
    .where('server_id', '=', serverId)
    .where('is_active', '=', 1)
    .where((eb) => eb.or([eb('valid_from', 'is', null), eb('valid_from', '<=', at)]))
    .where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>=', at), eb('valid_until', '=', at.slice(0, 10))]))
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('current_uses', '<', eb.ref('max_uses'))]));
}

export async function findDiscount(db: Kysely<Database>, serverId: number | null, months: number, now: Date): Promise<DiscountRow | undefined> {
  if (serverId === null) return undefined;
  return usableDiscounts(db, serverId, now).where('validity_months', '=', months).orderBy('credits_required', 'asc').orderBy('id', 'asc').executeTakeFirst();
}

export function regularQuote(serverId: number | null, months: number, settings: SystemSettings): RenewalQuote {
  const perMonth = settingNumberOrFallback('default-credits', settings.default_credits);
  const credits = months * perMonth;
  return {
    server_id: serverId,
    months,
    credits,
    price_per_month: perMonth,
    default_credits: perMonth,
    regular_credits: credits,
    savings: 0,
    discount_id: null,
    discount_name: null,
    is_promo: false,
    bonus_months: 0,
  };
}

export function discountQuote(serverId: number | null, months: number, settings: SystemSettings, discount: DiscountRow): RenewalQuote {
  const regular = regularQuote(serverId, months, settings);
  const bonusMonths = Math.max(0, discount.validity_months - discount.credits_required);
  return {
    ...regular,
    credits: discount.credits_required,
    price_per_month: Math.round((discount.credits_required / months) * 100) / 100,
    savings: regular.regular_credits - discount.credits_required,
    discount_id: discount.id,
    discount_name: discount.name,
    is_promo: bonusMonths > 0,
    bonus_months: bonusMonths,
  };
}

export async function quoteRenewal(db: Kysely<Database>, serverId: number | null, months: number, now: Date, settings?: SystemSettings): Promise<RenewalQuote> {
  const system = settings ?? (await getSystemSettings(db));
  if (!system.global_discounts_enabled) return regularQuote(serverId, months, system);
  const discount = await findDiscount(db, serverId, months, now);
  return discount ? discountQuote(serverId, months, system, discount) : regularQuote(serverId, months, system);
}

/** Takes one use of the discount if it still applies; false when another renewal took the last one. */
export async function consumeDiscount(db: Kysely<Database>, discountId: number, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const row = await db
    .updateTable('global_discounts')
    .set({ current_uses: sql`current_uses + 1` })
    .where('id', '=', discountId)
    .where('is_active', '=', 1)
    .where((eb) => eb.or([eb('valid_from', 'is', null), eb('valid_from', '<=', at)]))
    .where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>=', at), eb('valid_until', '=', at.slice(0, 10))]))
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('current_uses', '<', eb.ref('max_uses'))]))
    .returning('id')
    .executeTakeFirst();
  return Boolean(row);
}

/** How a discount reads through the API (the CRUD routes and the lookups alike). */
export function toGlobalDiscount(row: DiscountRow & { server_name?: string | null }): GlobalDiscount {
  const savings = row.validity_months - row.credits_required;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    server_id: row.server_id,
    server: row.server_id !== null && row.server_name != null ? { id: row.server_id, name: row.server_name } : null,
    validity_months: row.validity_months,
    credits_required: row.credits_required,
    discount_percentage: Number(row.discount_percentage),
    is_active: bool(row.is_active),
    valid_from: row.valid_from,
    valid_until: row.valid_until,
    max_uses: row.max_uses,
    current_uses: row.current_uses,
    savings,
    savings_percentage: row.validity_months > 0 ? Math.round((savings * 1000) / row.validity_months) / 10 : 0,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
