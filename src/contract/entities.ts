/** Response shapes the API sends and the panel reads (spec section 3). */
import type { z } from 'zod';
import type { CreditOption } from './creditOptions';
import type { Role } from './roles';
import type { globalDiscountEntity } from './schemas/globalDiscounts';
import type { serverEntity, serverOptionEntity } from './schemas/servers';
import type { themeEntity } from './schemas/themes';
import type { ticketCategoryEntity } from './schemas/ticketCategories';
import type { userPromoEntity } from './schemas/userPromos';

export interface ListMeta {
  total: number;
  current_page: number;
  per_page: number;
  last_page: number;
  from: number | null;
  to: number | null;
}

export interface Paginated<T> {
  data: T[];
  meta: ListMeta;
}

export interface ValidationErrorBody {
  message: string;
  errors: Record<string, string[]>;
}

export interface CurrentUser {
  id: number;
  name: string;
  username: string;
  phone: string | null;
  role: Role;
  /** Total balance (paid plus bonus); null for admin, who holds none. */
  credits: number | null;
  bonus_credits: number | null;
  server_id: number | null;
  is_active: boolean;
  created_at: string;
}

export interface LoginResponse {
  token: string;
  user: CurrentUser;
}

export interface PublicConfig {
  demo_mode: boolean;
  demo_users: string[];
  maintenance_mode: boolean;
  /** Whether trial accounts may be created now, and how long they last (every role's account form). */
  enable_trials: boolean;
  trial_days: number;
  theme: ThemeTokens | null;
}

export interface ThemeTokens {
  name: string;
  slug: string;
  colorPrimary?: string;
  colorBgLayout?: string;
  borderRadius?: number;
  algorithm?: 'default' | 'dark' | 'compact';
}

export type TicketCategory = z.infer<typeof ticketCategoryEntity>;

export interface UserRef {
  id: number;
  name: string;
  username: string;
  role: Role;
}

export interface NamedRef {
  id: number;
  name: string;
}

/** A manager, reseller or dealer as the API shows it. Panel users' passwords are never returned. */
export interface HierarchyUser {
  id: number;
  name: string;
  username: string;
  phone: string | null;
  role: Role;
  /** Total balance (paid plus bonus). */
  credits: number;
  bonus_credits: number;
  paid_credits: number;
  is_active: boolean;
  status: 'active' | 'inactive' | 'suspended';
  /** The server of the branch: a manager's own, else its manager's. */
  server_id: number | null;
  server: NamedRef | null;
  parent_id: number | null;
  /** The user it sits under: a reseller's manager, a dealer's reseller (null for a manager). */
  parent: NamedRef | null;
  manager: NamedRef | null;
  reseller: NamedRef | null;
  /** Direct children: resellers of a manager, dealers of a reseller. */
  total_children: number;
  /** End-user accounts anywhere in its subtree. */
  total_accounts: number;
  created_at: string;
  updated_at: string;
}

/** One ledger entry as the transaction lists show it (spec 3, Transaction). */
export interface TransactionEntry {
  id: number;
  transaction_number: string;
  type: 'PURCHASED' | 'USED' | 'RECOVERED' | 'TRIAL';
  credits: number;
  bonus_credits: number;
  account: string | null;
  account_id: number | null;
  coverage_start: string | null;
  coverage_end: string | null;
  remarks: string | null;
  date: string;
  created_at: string;
  balance_before: number;
  balance_after: number;
  user: UserRef;
  counterparty: UserRef | null;
  manager: NamedRef | null;
  reseller: NamedRef | null;
  dealer: NamedRef | null;
}

/** GET /credit-options/allocation: { data: CreditOptionsResponse }. */
export interface CreditOptionsResponse {
  /** The configured amounts first, then those computed from the giver's balance (with `share`). */
  options: CreditOption[];
  /** The giver's balance (null for admin, who holds none). */
  user_credits: number | null;
  min_credits: number;
  max_credits: number;
  /** A typed amount is a multiple of this (the settings' increment step; 1 for the credit levels). */
  step: number;
}

/** GET .../credits/recovery-options and /credit-options/recovery/{id}: { data: RecoveryOptionsResponse }. */
export interface RecoveryOptionsResponse {
  /** The configured amounts up to the paid credits, then the shares of them (with `share`). */
  options: CreditOption[];
  message: string;
  /** credits - bonus_credits: what a recovery may take. */
  available_paid_credits: number;
  /** The bonus removed when every paid credit is recovered. */
  bonus_credits_to_zero: number;
  user_credits: number;
  bonus_credits: number;
}

/** POST .../credits answer: { message, data: CreditMoveResult }. */
export interface CreditMoveResult {
  user: HierarchyUser;
  /** The caller's balance after the move (null for admin). */
  actor_credits: number | null;
  credits: number;
  bonus_credits: number;
  transactions: Array<{
    id: number;
    transaction_number: string;
    user_id: number;
    type: TransactionEntry['type'];
    credits: number;
    bonus_credits: number;
    balance_before: number;
    balance_after: number;
  }>;
}

/** GET /dealers/{id}/credits/recovery-history rows: allocations the dealer received. */
export interface RecoveryHistoryItem {
  id: number;
  transaction_number: string;
  credits: number;
  date: string;
  remarks: string | null;
  from: UserRef | null;
  /** True once all of it was taken back (by recover-from-history or by normal recoveries). */
  recovered: boolean;
  /** When credits were last taken back from it (null when none were). */
  recovered_at: string | null;
  /** Taken back from it so far. */
  recovered_credits: number;
  /** What recover-from-history would take now: what is left of it, at most the paid balance. */
  recoverable_credits: number;
}

/** A middleware database server. Its password is write-only: only has_password is ever sent. */
export type Server = z.infer<typeof serverEntity>;

/** What every role's server pickers read (GET /servers/public). */
export type ServerOption = z.infer<typeof serverOptionEntity>;

export type Theme = z.infer<typeof themeEntity>;

export interface ServerRef {
  id: number;
  name: string;
}

export type UserPromo = z.infer<typeof userPromoEntity>;

export type GlobalDiscount = z.infer<typeof globalDiscountEntity>;

export interface CreditOptionsTestResult {
  options_count: number;
  user_credits: number;
  generated_options: number[];
}

/** An end-user account (spec 3). */
export interface Account {
  id: number;
  login: string;
  full_name: string;
  /** The device portal password: plain for reseller and dealer callers, '********' for admin and manager. */
  pwd_txt: string;
  /** Colon-separated uppercase ('00:1A:79:00:00:01'). */
  mac_address: string;
  expiry_date: string | null;
  validity_months: number;
  created_at: string;
  updated_at: string;
  status: 'active' | 'inactive' | 'suspended';
  is_active: boolean;
  is_promo: boolean;
  bonus_months: number;
  auto_renew_months: number | null;
  auto_renew_end_date: string | null;
  /** Set when an automatic renewal failed (insufficient credits); cleared by a renewal or re-enabling. */
  auto_renew_failed_at: string | null;
  auto_renew_error: string | null;
  server_id: number | null;
  server: { id: number; name: string } | null;
  state: 'online' | 'offline';
  last_active: string | null;
  ip_address: string | null;
  connection_status: string;
  is_trial: boolean;
  owner: UserRef;
}

/** The price of a renewal of `months` on a server (POST /global-discounts/calculate-credits). */
export interface RenewalQuote {
  server_id: number | null;
  months: number;
  credits: number;
  price_per_month: number;
  default_credits: number;
  /** What the months would cost without a discount, and the difference. */
  regular_credits: number;
  savings: number;
  discount_id: number | null;
  discount_name: string | null;
  /** The discount gives more months than it costs: the account becomes a promo account. */
  is_promo: boolean;
  bonus_months: number;
}

/** What a renewal or recovery did (POST /accounts/{id}/credits, bulk-renew). */
export interface RenewalResult {
  account_id: number;
  months: number;
  /** Credits charged (renew) or refunded (recover); 0 for admin. */
  credits: number;
  discount_id: number | null;
  coverage_start: string;
  coverage_end: string;
  transaction_number: string | null;
}

export interface AccountMessage {
  id: number;
  account_id: number;
  message: string;
  sender: UserRef | null;
  created_at: string;
}

/** GET /mac-search answer: { data: MacSearchResult }. */
export interface MacSearchResult {
  mac: string;
  found: boolean;
  /** The MAC exists, but only on accounts outside the caller's subtree (whose is not said). */
  registered_elsewhere: boolean;
  account: Account | null;
  accounts: Account[];
  message: string;
}
