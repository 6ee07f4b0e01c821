/** Business constants and limits (docs/domain.md says what they are for). */
export const PASSWORD_MIN_LENGTH = 8;

export const RENEW_MONTHS = { min: 1, max: 50 } as const;
export const CREDITS_PER_MONTH = 1;

export const PAGE_SIZES = [10, 15, 25, 50] as const;
export const DEFAULT_PAGE_SIZE = 10;
/**
 * Lists count their rows exactly up to this many; past it the total is this figure as a lower bound
 * (meta.total_exact false: "more than"), since counting a million rows exactly costs more than the page.
 */
export const EXACT_TOTAL_LIMIT = 10_000;
/**
 * A search counts its matches exactly up to this many. A frequent term is found all over the table:
 * counting 10,000 matches read about 80,000 of a million accounts, where 1,000 reads a tenth of that
 * and the count costs the same at any size.
 */
export const SEARCH_EXACT_TOTAL_LIMIT = 1_000;
export const MAX_PAGE_SIZE = 100;
export const AUDIT_PAGE_SIZES = [10, 15, 25, 50, 100] as const;
export const AUDIT_DEFAULT_PAGE_SIZE = 15;
export const MAX_PAGE_BUTTONS = 5;

export const ANNOUNCEMENT_PAGE_SIZE = { admin: 15, user: 10 } as const;
export const BANNER = { maxItems: 3, contentCut: 150 } as const;
export const LIST_PREVIEW_CUT = 200;
export const EXPIRING_SOON_HOURS = 24;

export const SEARCH_DEBOUNCE_MS = 500;
export const REFETCH_DELAY_MS = 300;
/** The public config (maintenance, theme, trials) is read again this often, and when the window gets the focus back. */
export const CONFIG_REFRESH_MS = 60_000;

export const TOAST_MS = { default: 3000, error: 4000 } as const;
export const POPUP_AUTO_CLOSE_MS = 3000;

export const DATE_PRESETS = ['today', 'yesterday', 'last_7_days', 'last_30_days', 'last_90_days', 'this_month', 'last_month', 'this_year', 'custom'] as const;
export const DEFAULT_DATE_PRESET = 'last_30_days';

/** Fallback credit options: 10 in steps of 5 up to 2000 (admin) or the user's balance. */
export const FALLBACK_CREDIT_OPTIONS = { start: 10, step: 5, adminMax: 2000 } as const;
export const CREDIT_RANGE_HINT = { min: 10, max: 10000 } as const;
export const MANAGER_ALLOCATION_MAX = 10000;
/** No balance may exceed this (PostgreSQL keeps balances in 32-bit integers). */
export const MAX_BALANCE = 1_000_000_000;

export const EXPIRY_FILTERS = ['expired', '1', '3', '7', '30', '60', '90', '365'] as const;
/** The windows the hierarchy tree counts expiring accounts in (each one of EXPIRY_FILTERS, so a count opens its list). */
export const EXPIRING_WINDOWS = ['1', '3', '7', '30'] as const;
/** Trial accounts ending within one of these days (the accounts list's trial_ending filter); the dashboard counts TRIAL_ENDING_DAYS. */
export const TRIAL_ENDING_FILTERS = EXPIRING_WINDOWS;
export const TRIAL_ENDING_DAYS = 3;
/** A member is low on credits below this balance (the members lists' low_credits filter takes any threshold). */
export const LOW_CREDITS_THRESHOLD = 10;
/** A panel user's or an account's status; here, not beside the schemas, so that a list's status filter loads no zod. */
export const USER_STATUSES = ['active', 'inactive', 'suspended'] as const;
export const EXPIRY_WARNING_DAYS = 7;
export const MONTHS_LEFT_AFTER_DAYS = 31;

export const SYSTEM_SETTING_DEFAULTS = {
  trial_days: 7,
  default_credits: 1,
  minimum_credit_limit: 0,
  minimum_credits_reseller_creation: 0,
  minimum_credits_dealer_creation: 0,
  minimum_credits_trial_user_creation: 0,
  // One trial per device (MAC) in this many days; trials one user may start per UTC day (0: none).
  trial_period_days: 30,
  trials_per_day: 20,
  enable_trials: true,
  enable_promos: true,
  enable_reseller_dealer_promos: true,
  global_discounts_enabled: true,
  maintenance_mode: false,
  // Two-factor sign-in required of every user of the role (users without one enrol at sign-in).
  two_factor_admin: false,
  two_factor_manager: false,
  two_factor_reseller: false,
  two_factor_dealer: false,
  // A parent viewing the panel as a user below may act as it (otherwise view-as is read only).
  view_as_can_act: false,
} as const;

export const SERVER_DEFAULTS = { db_port: '3306', driver: 'local', status: 'active', connection_status: 'online', timeout_seconds: 5 } as const;

/**
 * How long one call to a server's middleware may take, in seconds (connecting, waiting for a
 * connection of the pool, every statement and every lock wait together).
 */
export const SERVER_TIMEOUT_RANGE = { min: 1, max: 60 } as const;

export const GLOBAL_DISCOUNT_DEFAULTS = {
  validity_months: 12,
  credits_required: 9,
  discount_percentage: 0,
  is_active: true,
} as const;

export const CREDIT_LEVELS_DEFAULTS = {
  minimum: 1,
  maximum: 10000,
  step: 1,
  promo_enabled: true,
  promo_ratio: 0.2,
} as const;
export const CREDIT_LEVELS_PREVIEW_MAX = 21;

export const CREDIT_OPTIONS_DEFAULTS = {
  min_credits: 10,
  max_credits: 10000,
  increment_step: 1,
  preset_amounts: [10, 25, 50, 100, 200, 500, 1000, 2000, 5000],
  enable_percentage_options: true,
  percentage_options: [25, 50, 75, 100],
  enable_all_available_option: true,
  is_active: true,
} as const;
export const CREDIT_OPTIONS_TEST_DEFAULT = 1000;

export const TIME_FORMAT = 'HH:mm';
export const DATETIME_FORMAT = 'YYYY-MM-DD HH:mm';
export const DATE_FORMAT = 'YYYY-MM-DD';

/** Browser storage keys (docs/domain.md#session). */
export const STORAGE_KEYS = {
  token: 'token',
  dismissedAnnouncements: 'dismissed-announcements',
  userRole: 'userRole',
  /** sessionStorage: the API ended the session (a 401); the sign-in page says so until the next sign-in. */
  sessionEnded: 'sessionEnded',
  /** While viewing as another user: the parent's own token and role, restored when the view ends. */
  viewAsParent: 'viewAsParent',
  /** The user's colour scheme choice, kept so a reload paints in it before the API answers. */
  colorScheme: 'colorScheme',
  /** '1' when the active site theme was dark at the last visit (what 'system' shows then). */
  siteDark: 'siteDark',
  /** The last site theme's derived antd tokens, so a reload renders without deriving them again. */
  themeConfig: 'themeConfig',
  /** Each page list's last measured width, with the window width it was measured at. */
  listWidths: 'listWidths',
} as const;

/** A user's colour scheme: the device's setting (the default), or always light or dark. */
export const COLOR_SCHEMES = ['system', 'light', 'dark'] as const;
export type ColorScheme = (typeof COLOR_SCHEMES)[number];

/** Demo users: seeded in demo mode, where they accept any password. */
export const DEMO_USERNAMES = ['admin', 'manager', 'reseller', 'dealer'] as const;

export const API_PREFIX = '/api/v1';

/** The largest record id (ids are 32-bit integers in PostgreSQL). */
export const MAX_RECORD_ID = 2_147_483_647;

/** The panel's screen a user held to two-factor sign-in without one is taken to. */
export const TWO_FACTOR_ENROL_PATH = '/two-factor/setup';

/**
 * The themes the product ships (the demo seeds them; the Themes screen offers them to every install).
 * The build derives their antd tokens ahead (src/theme.ts), so that the panel opens in them without
 * deriving.
 */
export const THEME_PRESETS = [
  {
    name: 'Classic',
    slug: 'classic',
    description: 'Ant Design blue on a light layout',
    tokens: { colorPrimary: '#1677ff', colorBgLayout: '#f5f5f5', borderRadius: 6, algorithm: 'default' },
  },
  { name: 'Midnight', slug: 'midnight', description: 'Dark layout with a violet accent', tokens: { colorPrimary: '#722ed1', borderRadius: 8, algorithm: 'dark' } },
  {
    name: 'Compact Green',
    slug: 'compact-green',
    description: 'Dense tables with a green accent',
    tokens: { colorPrimary: '#389e0d', colorBgLayout: '#f6ffed', borderRadius: 4, algorithm: 'compact' },
  },
] as const;
