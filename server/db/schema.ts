/**
 * Table types for Kysely. Portable choices: timestamps are ISO-8601 UTC text, booleans are 0/1
 * integers, JSON is text. Both SQLite and PostgreSQL store and compare these the same way.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Id = Generated<number>;
type Flag = number; // 0 or 1
type Timestamp = string; // ISO-8601 UTC

export interface UsersTable {
  id: Id;
  role: string;
  parent_id: number | null;
  /** Ancestor path '/1/5/12/' ending with the user's own id: subtree = path LIKE prefix%. */
  path: string;
  name: string;
  username: string;
  password_hash: string;
  phone: string | null;
  /** Total balance: paid plus bonus. */
  credits: number;
  /** The part of `credits` that is bonus (promo) credit; recovery never returns it. */
  bonus_credits: number;
  status: string; // active | inactive | suspended
  server_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * The last ledger entry applied to the balance. Set by the database when an entry is inserted;
   * the balance columns change only that way (migration 0006).
   */
  ledger_entry_id: ColumnType<number | null, never, never>;
  /** When the user's second factor was turned on; null: none (migration 0024). */
  two_factor_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** Where the user's notification digest goes; null: none (migration 0026). */
  email: ColumnType<string | null, string | null | undefined, string | null>;
  /** The last successful sign-in and its address (migration 0028). */
  last_login_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  last_login_ip: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface UserTwoFactorTable {
  user_id: number;
  /** The TOTP secret, encrypted with APP_KEY (servers/secret.ts). */
  secret_enc: string;
  /** 0 while the setup waits for its first code, 1 once confirmed. */
  confirmed: ColumnType<number, number | undefined, number>;
  /** The last TOTP time step accepted: a code of that step or before is refused. */
  last_step: ColumnType<number | string | null, number | null | undefined, number | null>;
  created_at: Timestamp;
}

export interface RecoveryCodesTable {
  id: Id;
  user_id: number;
  code_hash: string;
  used_at: Timestamp | null;
}

export interface LoginChallengesTable {
  challenge_hash: string;
  user_id: number;
  expires_at: Timestamp;
}

export interface AuthTokensTable {
  id: Id;
  user_id: number;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  last_used_at: Timestamp | null;
  /** Where the session was opened (migration 0028). */
  ip_address: ColumnType<string | null, string | null | undefined, string | null>;
  user_agent: ColumnType<string | null, string | null | undefined, string | null>;
  /** A view-as session: the parent viewing, the parent's own session it came from, 'read' or 'act'. */
  viewer_id: ColumnType<number | null, number | null | undefined, number | null>;
  viewer_token_id: ColumnType<number | null, number | null | undefined, number | null>;
  view_mode: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SignInEventsTable {
  id: Id;
  user_id: number;
  /** 'success' | 'failure' */
  outcome: string;
  /** Why it failed, or how it succeeded (contract SIGN_IN_REASONS). */
  reason: string | null;
  ip_address: string | null;
  user_agent: string | null;
  created_at: Timestamp;
}

export interface RateLimitsTable {
  key: string;
  window_start: number; // epoch ms
  hits: number;
}

export interface SettingsTable {
  key: string;
  value: string; // JSON
  updated_at: Timestamp;
}

export interface ServersTable {
  id: Id;
  name: string;
  db_host: string;
  db_username: string;
  db_password_enc: string | null;
  db_port: string;
  db_name: string;
  driver: Generated<string>; // local | ministra
  /** Seconds one middleware call may take (connect, pool wait, statements, lock waits). */
  timeout_seconds: Generated<number>;
  status: string; // active | inactive
  connection_status: string; // online | offline
  last_checked_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AccountsTable {
  id: Id;
  owner_id: number;
  /** Copy of the owner's path, so accounts scope by the same prefix rule as users. */
  owner_path: string;
  server_id: number | null;
  /** The subscriber's id in the server's middleware database (ministra driver). */
  middleware_id: Generated<number | null>;
  login: string;
  full_name: string;
  pwd_txt: string;
  mac_address: string; // 12 uppercase hex digits
  expiry_date: Timestamp | null;
  validity_months: number;
  status: string; // active | inactive | suspended
  is_promo: Flag;
  bonus_months: number;
  is_trial: Flag;
  auto_renew_months: number | null;
  auto_renew_end_date: Timestamp | null;
  auto_renew_failed_at: Timestamp | null;
  auto_renew_error: string | null;
  state: string; // online | offline
  last_active: Timestamp | null;
  ip_address: string | null;
  connection_status: string;
  device_info: string | null; // JSON
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Soft delete (0004): the ledger keeps referring to deleted accounts. */
  deleted_at: Timestamp | null;
}

export interface CreditTransactionsTable {
  id: Id;
  transaction_number: string;
  /** Whose balance this entry changes. */
  user_id: number;
  type: string; // PURCHASED | USED | RECOVERED | TRIAL
  /** Signed change of the total balance. */
  credits: number;
  /** Signed change of the bonus part of the balance. */
  bonus_credits: number;
  balance_before: number;
  balance_after: number;
  /** The other side of the move: a user id, or null for the system (minting, spending). */
  counterparty_id: number | null;
  actor_id: number | null;
  account_id: number | null;
  /** Entries written by one operation share it. */
  operation_id: string;
  coverage_start: Timestamp | null;
  coverage_end: Timestamp | null;
  remarks: string | null;
  created_at: Timestamp;
}

/** One recovery's take from one allocation (a paid PURCHASED entry from another user). */
export interface AllocationRecoveriesTable {
  id: Id;
  allocation_id: number;
  /** The recovered user's RECOVERED entry. */
  recovery_id: number;
  credits: number;
  created_at: Timestamp;
}

/** The bonus minted with an allocation and the promotion behind it (migration 0019). */
export interface AllocationBonusesTable {
  /** The paid PURCHASED entry that earned the bonus. */
  allocation_id: number;
  /** The bonus PURCHASED entry. */
  bonus_id: number;
  credits: number;
  /** 'promo' (a user promo), 'level' (the credit levels), 'unknown' (a grant the backfill could not name). */
  source: string;
  promo_id: number | null;
  created_at: Timestamp;
}

/** What a recovery took back of an allocation's bonus, and the entry that did it. */
export interface BonusRecoveriesTable {
  id: Id;
  allocation_id: number;
  entry_id: number;
  credits: number;
  created_at: Timestamp;
}

export interface IdempotencyKeysTable {
  id: Id;
  actor_id: number;
  key: string;
  request_hash: string;
  status_code: number;
  response_body: string;
  created_at: Timestamp;
}

export interface TicketCategoriesTable {
  id: Id;
  name: string;
  description: string | null;
  is_active: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TicketsTable {
  id: Id;
  user_id: number;
  owner_path: string;
  category_id: number | null;
  subject: string;
  message: string;
  priority: string; // low | medium | high | urgent
  status: string; // open | closed
  created_at: Timestamp;
  updated_at: Timestamp;
  closed_at: Timestamp | null;
  /** When the owner or the staff above it last wrote (0008). */
  last_activity_at: Timestamp | null;
  /** Who wrote last: 'owner' or 'staff' (anyone above the owner, up to admin). */
  last_activity_side: Generated<string>;
}

/** When each user last opened a ticket (0008): unread = the other side wrote after that. */
export interface TicketReadsTable {
  ticket_id: number;
  user_id: number;
  read_at: Timestamp;
}

export interface TicketRepliesTable {
  id: Id;
  ticket_id: number;
  user_id: number;
  message: string;
  created_at: Timestamp;
}

export interface AnnouncementsTable {
  id: Id;
  title: string;
  content: string; // sanitised HTML
  type: string; // info | warning | success | error
  priority: string; // low | medium | high | urgent
  target_roles: string; // JSON array
  target_users: string; // JSON array of ids
  is_active: Flag;
  starts_at: Timestamp | null;
  expires_at: Timestamp | null;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AnnouncementReadsTable {
  announcement_id: number;
  user_id: number;
  read_at: Timestamp;
}

export interface AuditLogsTable {
  id: Id;
  module: string;
  action: string;
  user_id: number | null;
  username: string | null;
  target_username: string | null;
  entity_id: number | null;
  description: string | null;
  ip_address: string | null;
  user_agent: string | null;
  old_values: string | null; // JSON
  new_values: string | null; // JSON
  created_at: Timestamp;
  /** The parent who acted through a view-as session as `username` (migration 0028). */
  viewer_username: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ThemesTable {
  id: Id;
  name: string;
  slug: string;
  description: string | null;
  is_active: Flag;
  tokens: string | null; // JSON: Ant Design theme tokens
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserPromosTable {
  id: Id;
  name: string;
  description: string | null;
  server_id: number | null;
  credits_required: number;
  bonus_credits: number;
  is_active: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface GlobalDiscountsTable {
  id: Id;
  name: string;
  description: string | null;
  server_id: number | null;
  validity_months: number;
  credits_required: number;
  discount_percentage: number;
  is_active: Flag;
  valid_from: Timestamp | null;
  valid_until: Timestamp | null;
  max_uses: number | null;
  current_uses: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AccountMessagesTable {
  id: Id;
  account_id: number;
  sender_id: number;
  message: string;
  created_at: Timestamp;
}

/** A panel change that writes a middleware, from before the middleware call until settled (migration 0016). */
export interface MiddlewareJournalTable {
  id: Generated<number>;
  kind: string;
  actor_id: number | null;
  idempotency_key: string | null;
  plan: string; // JSON, see server/provisioning/journal.ts
  status: 'pending' | 'done' | 'compensated';
  lease_owner: string | null;
  lease_until: number; // epoch ms
  attempts: Generated<number>;
  last_error: string | null;
  created_at: string;
  settled_at: string | null;
}

export interface MiddlewareClaimsTable {
  claim: string;
  journal_id: number;
}

export interface JobLocksTable {
  name: string;
  owner: string;
  locked_until: number; // epoch ms
}

/**
 * Figures kept by triggers with the accounts they count, per owner (migration 0013): kind 'all'
 * (live accounts; bucket ''), 'none' (live without an expiry), 'month'/'day' (live, by expiry
 * 'YYYY-MM' / 'YYYY-MM-DD'), 'created_month'/'created_day' (every account, by creation).
 */
export interface AccountTalliesTable {
  owner_id: number;
  kind: string;
  bucket: string;
  n: number;
  /** Of those, the ones with status 'active'. */
  active: number;
}

/**
 * PURCHASED and USED ledger entries per user and creation month or day, kept by trigger (0013): kind
 * 'purchased_month', 'purchased_day', 'used_month' or 'used_day'.
 */
export interface LedgerTalliesTable {
  user_id: number;
  kind: string;
  bucket: string;
  /** PURCHASED entries with credits > 0: their sum and count; purchased_other sums the others. */
  purchased: number;
  purchased_entries: number;
  purchased_other: number;
  /** USED entries: the sum of their -credits and their count. */
  spent: number;
  spent_entries: number;
  /** USED entries naming an account (renewals): their count and -credits. */
  renewals: number;
  renewal_credits: number;
}

/** The last trial of each device (migration 0018): one row per normalised MAC address. */
export interface TrialDevicesTable {
  mac_address: string;
  /** The account of that trial (it may since be deleted, converted or re-MACed). */
  account_id: number | null;
  started_at: string;
}

/** Trials started per creator and UTC day 'YYYY-MM-DD' (migration 0018). */
export interface TrialQuotasTable {
  creator_id: number;
  day: string;
  n: number;
}

/** One call of server/ledger/post.ts (migration 0022): every entry names one, and they are counted. */
export interface LedgerOperationsTable {
  /** The operation_id its entries carry. */
  id: string;
  /** What wrote it (OPERATION_KINDS in server/ledger/post.ts, or 'legacy' for entries older than the table). */
  kind: string;
  actor_id: number | null;
  /** How many entries it wrote. */
  entries: number;
  created_at: Timestamp;
}

/** A user's own preferences (migration 0023): the contract's userPreferences as JSON text. */
export interface UserPreferencesTable {
  user_id: number;
  preferences: string; // JSON
  updated_at: Timestamp;
}

/** A member's limits (migration 0025); null: no limit. */
export interface MemberCapsTable {
  user_id: number;
  max_accounts: number | null;
  trials_per_day: number | null;
  credits_per_day: number | null;
  updated_by: number;
  updated_at: Timestamp;
}

/** A bulk operation on accounts: its preview, then its one application (migration 0029). */
export interface BulkJobsTable {
  id: Generated<number>;
  actor_id: number;
  action: string;
  months: number | null;
  message: string | null;
  /** JSON: {account_ids} or {filter}, as the preview was asked. */
  target: string;
  /** previewed, running, done, failed */
  status: string;
  /** direct (one transaction) or job (chunks) */
  mode: string;
  matched: number;
  applicable: number;
  credits: number;
  processed: Generated<number>;
  succeeded: Generated<number>;
  refused: Generated<number>;
  charged: Generated<number>;
  /** The last account id a committed chunk handled. */
  cursor: Generated<number>;
  error: string | null;
  ip_address: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface BulkJobItemsTable {
  job_id: number;
  account_id: number;
}

export interface BulkJobResultsTable {
  job_id: number;
  account_id: number;
  login: string;
  /** done or refused */
  status: string;
  reason: string | null;
  credits: Generated<number>;
  transaction_number: string | null;
  expiry_date: string | null;
  created_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  auth_tokens: AuthTokensTable;
  sign_in_events: SignInEventsTable;
  user_two_factor: UserTwoFactorTable;
  recovery_codes: RecoveryCodesTable;
  login_challenges: LoginChallengesTable;
  rate_limits: RateLimitsTable;
  settings: SettingsTable;
  servers: ServersTable;
  accounts: AccountsTable;
  credit_transactions: CreditTransactionsTable;
  idempotency_keys: IdempotencyKeysTable;
  allocation_recoveries: AllocationRecoveriesTable;
  allocation_bonuses: AllocationBonusesTable;
  bonus_recoveries: BonusRecoveriesTable;
  ticket_categories: TicketCategoriesTable;
  tickets: TicketsTable;
  ticket_replies: TicketRepliesTable;
  ticket_reads: TicketReadsTable;
  announcements: AnnouncementsTable;
  announcement_reads: AnnouncementReadsTable;
  audit_logs: AuditLogsTable;
  themes: ThemesTable;
  user_promos: UserPromosTable;
  global_discounts: GlobalDiscountsTable;
  account_messages: AccountMessagesTable;
  job_locks: JobLocksTable;
  middleware_journal: MiddlewareJournalTable;
  middleware_claims: MiddlewareClaimsTable;
  account_tallies: AccountTalliesTable;
  ledger_tallies: LedgerTalliesTable;
  trial_devices: TrialDevicesTable;
  trial_quotas: TrialQuotasTable;
  ledger_operations: LedgerOperationsTable;
  user_preferences: UserPreferencesTable;
  member_caps: MemberCapsTable;
  notification_settings: NotificationSettingsTable;
  notification_events: NotificationEventsTable;
  notifications: NotificationsTable;
  notification_outbox: NotificationOutboxTable;
  bulk_jobs: BulkJobsTable;
  bulk_job_items: BulkJobItemsTable;
  bulk_job_results: BulkJobResultsTable;
}

/** A user's notification choices (migration 0026); no row: the contract's defaults. */
export interface NotificationSettingsTable {
  user_id: number;
  /** JSON: per channel, the event types it carries. */
  channels: string;
  low_balance_threshold: number;
  expiry_reminder_days: number;
  webhook_url: string | null;
  /** The webhook's signing secret, encrypted with APP_KEY (servers/secret.ts). */
  webhook_secret_enc: string | null;
  updated_at: Timestamp;
}

/** Something that happened, recorded once per dedupe key. */
export interface NotificationEventsTable {
  id: Id;
  type: string;
  dedupe_key: string;
  /** JSON: title, text, link and the facts of the event. */
  payload: string;
  created_at: Timestamp;
}

/** The panel's inbox: one row per event and recipient. */
export interface NotificationsTable {
  id: Id;
  event_id: number;
  user_id: number;
  read_at: Timestamp | null;
  created_at: Timestamp;
}

/** One outward delivery (e-mail, webhook) of an event to a recipient; unique per (event, user, channel). */
export interface NotificationOutboxTable {
  id: Id;
  event_id: number;
  user_id: number;
  channel: string; // email | webhook
  status: string; // pending | sent | failed
  attempts: Generated<number>;
  /** Not tried before this time (e-mail: the next digest; after a failure: the backoff). */
  next_attempt_at: Timestamp;
  lease_owner: string | null;
  /** Epoch ms; a claim whose lease ran out (its worker died) may be claimed again. */
  lease_until: ColumnType<number | string, number | undefined, number>;
  last_error: string | null;
  sent_at: Timestamp | null;
  created_at: Timestamp;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type AccountRow = Selectable<AccountsTable>;
export type ServerRow = Selectable<ServersTable>;
export type TransactionRow = Selectable<CreditTransactionsTable>;
export type { ColumnType };
