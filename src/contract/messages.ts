/**
 * Every user-facing message (docs/domain.md#messages), written once. The API answers with these
 * texts in its 422 field errors so the panel can show them under the fields unchanged.
 * A toast written as 'Title: description' is a { title, description } pair.
 */
import { grouped, plural, pluralWord } from './format';
import { EXPIRING_WINDOWS } from './constants';

export interface ToastText {
  title: string;
  description: string;
}

/** The toast of a bulk operation: '3 resellers deleted successfully.' */
const bulkDone = (n: number, what: string, verb: string) => `${plural(n, what)} ${verb} successfully.`;

export const AUTH = {
  welcome: 'Welcome Back',
  signingIn: 'Signing in...',
  fillAllFields: 'Please fill in all fields',
  invalidCredentials: 'Invalid credentials. Please try again.',
  loginSuccess: 'Login successful. Redirecting...',
  unauthenticated: 'Unauthenticated.',
  tooManyAttempts: 'Too Many Attempts.',
  accountDisabled: 'This account is disabled.',
  /** Sign-in and every call of a user below a suspended or inactive user (its branch is stopped). */
  branchSuspended: "This account's branch is suspended: a user above it is not active. Please contact your upline.",
  authRequired: { title: 'Authentication Required', description: 'Please log in to continue' },
  /** Under the maintenance message on the sign-in page while maintenance mode is on. */
  maintenanceSignIn: 'Only administrators can sign in until the maintenance is over.',
  /** On the sign-in page when the API ended the session (a 401 sent the user there). */
  sessionEnded: 'Your session has ended. Please sign in again.',
} as const;

/** Two-factor sign-in (TOTP authenticator codes and one-time recovery codes). */
export const TWO_FACTOR = {
  title: 'Two-Factor Sign-In',
  codeLabel: 'Authentication code',
  codePrompt: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  codeRequired: 'Enter the code from your authenticator app',
  codeInvalid: 'The code is not valid. Please try again.',
  codeFormat: 'Enter a 6-digit code or a recovery code',
  challengeExpired: 'This sign-in has expired. Please sign in again with your password.',
  verify: 'Verify',
  backToSignIn: 'Back to sign in',
  enabled: 'Two-factor sign-in is on.',
  disabled: 'Two-factor sign-in is off.',
  statusOn: 'On',
  statusOff: 'Off',
  intro: 'Protect your account with a code from an authenticator app (Google Authenticator, Authy, 1Password...) in addition to your password.',
  start: 'Set up two-factor sign-in',
  scanQr: 'Scan this QR code with your authenticator app, or type the secret into it, then enter the code it shows.',
  secretLabel: 'Secret',
  qrAlt: 'QR code for your authenticator app',
  confirm: 'Turn on',
  cancel: 'Cancel',
  turnOff: 'Turn off two-factor sign-in',
  turnOffPrompt: 'Enter your current password or a code from your authenticator app.',
  turnOffCredential: 'Provide your current password or a code',
  recoveryTitle: 'Recovery codes',
  recoveryHelp: 'Keep these codes somewhere safe. Each one signs you in once if you lose your authenticator. They are shown only now.',
  recoveryLeft: (n: number) => `${n} recovery code${n === 1 ? '' : 's'} left`,
  recoveryDone: 'I have saved them',
  settingsCard: 'Two-Factor Sign-In',
  settingsHelp: (who: string) => `Every one of the ${who} must sign in with a second factor.`,
  alreadyOn: 'Two-factor sign-in is already on. Turn it off first to set it up again.',
  noSetup: 'Start the setup again: no pending two-factor setup was found.',
  required: 'Your administrator requires two-factor sign-in for your role. Set it up to continue.',
  /** The API's 403 to a user who must enrol and calls anything else. */
  enrolmentRequired: 'Two-factor sign-in is required for your account. Set it up in your profile before doing anything else.',
  requiredCannotTurnOff: 'Two-factor sign-in is required for your role: it cannot be turned off.',
  reset: 'Reset two-factor',
  resetConfirm: (username: string) => `Reset the second factor of ${username}? They sign in with their password alone until they set it up again.`,
  resetDone: 'Two-factor sign-in was reset.',
  resetNone: 'This user has no second factor to reset.',
  resetAdmin: "An administrator's second factor can be reset only from the command line (reset-2fa).",
  keyMissing: 'Two-factor sign-in is unavailable: the server has no APP_KEY to keep the secret encrypted.',
} as const;

export const ACCESS = {
  denied: 'Access Denied',
  deniedBody: "You don't have permission to access this resource. Please contact your administrator if you believe this is an error.",
  returnToLogin: 'Return to Login',
  adminOnly: 'You need admin privileges to access this page.',
  currentRole: 'Current user role:',
  notFound: 'Page Not Found',
  returnToDashboard: 'Return to Dashboard',
  forbidden: "You don't have permission to perform this action.",
  notFoundEntity: 'Entity Not Found',
  maintenance: 'The system is under maintenance. Please try again later.',
} as const;

export const PROFILE = {
  usernameLocked: 'Username cannot be changed',
  nameRequired: 'Name is required',
  allPasswordFields: 'All password fields are required',
  passwordsMismatch: 'New passwords do not match',
  passwordTooShort: 'New password must be at least 8 characters long',
  currentPasswordWrong: 'The current password is incorrect.',
  updateFailed: { title: 'Update Failed', description: 'Failed to update profile' },
  passwordFailed: {
    title: 'Password Change Failed',
    description: 'Failed to change password. Please check your current password.',
  },
  loginToUpdate: 'You must be logged in to update your profile',
  loginToChangePassword: 'You must be logged in to change your password',
  updated: 'Profile updated successfully.',
  passwordChanged: 'Password changed successfully.',
  loadUserFailed: 'Failed to load user information',
} as const;

export const GENERAL = {
  apiError: 'API Error',
  error: 'Error',
  noData: 'No data found',
  somethingWrong: { title: 'Something went wrong', description: 'Please try refreshing the page' },
  loadFailed: 'Load Failed',
  comingSoon: 'coming soon',
  malformedJson: 'The request body is not valid JSON.',
  validationFailed: 'The given data was invalid.',
  serverError: 'Server Error',
  fieldRequired: 'This field is required.',
  invalidId: 'The id must be a positive whole number.',
  alreadyExists: 'This value is already in use. Refresh and try again.',
  relatedRecordGone: 'A related record was changed or removed meanwhile. Refresh and try again.',
  numberOutOfRange: 'A number is out of range.',
  serverPlaceholder: 'Select a server',
  invalidCharacters: 'This field contains characters that are not allowed (control characters or broken Unicode).',
  forbiddenKey: 'The request names a field that is not allowed (__proto__ or constructor.prototype).',
  unstorableText: 'The request contains text that cannot be stored.',
} as const;

export const ENTITY_FORM = {
  nameRequired: PROFILE.nameRequired,
  usernameRequired: 'Username is required',
  passwordRequiredAccounts: 'Password is required for new accounts',
  macRequired: 'STB MAC address is required for users',
  managerNameRequired: 'Manager name is required',
  passwordRequiredManagers: 'Password is required for new managers',
  creditsPositive: 'Credits must be a positive number',
  passwordRequiredResellers: 'Password is required for new resellers',
  fixErrors: 'Please fix the following errors:',
  usernameTaken: 'The username has already been taken.',
  expiryInPast: 'Expiry date cannot be in the past',
  invalidMac: 'MAC address must be exactly 12 hexadecimal digits',
  /** Every password field of an edit form (users, managers, resellers, dealers, servers). */
  keepPassword: 'Leave empty to keep the current password',
} as const;

export const CREDITS = {
  selectAmount: 'Please select a valid amount',
  adminAllocationCap: 'Admin allocation cannot exceed 10,000 credits',
  cannotRecover: (available: number) => `Cannot recover more than available credits (${available})`,
  /** A bonus is earned by credits that stay bought: bonus already spent is paid back from the paid credits. */
  cannotRecoverSpentBonus: (available: number, spent: number) =>
    `Cannot recover more than available credits (${available}): ${spent} bonus credits these credits earned were already spent and are paid back from the paid credits.`,
  /** Remarks of the ledger entries a recovery writes for the bonus of the allocations it reached. */
  bonusTakenBack: 'Bonus credits taken back: the credits that earned them were recovered',
  spentBonusCharged: 'Spent bonus credits paid back: the credits that earned them were recovered',
  rateLimit: { title: 'Rate Limit Exceeded', description: 'Too many credit operations. Please wait before trying again.' },
  paidCredits: 'Insufficient Credits',
  promoCredits: 'Invalid Promo Credits',
  recipient: 'Invalid Recipient',
  validation: { title: 'Validation Failed', description: 'Please check your input and try again.' },
  unauthorized: { title: 'Unauthorized', description: ACCESS.forbidden },
  addFailed: 'Failed to Add Credits',
  recoveryOptionsFailed: 'Failed to load recovery options',
  insufficientCredits: (needed: number, available: number) => `Insufficient credits: You need ${needed} credits but only have ${available}`,
  balanceCap: (max: number) => `A balance cannot exceed ${grouped(max)} credits.`,
  /** A typed amount above the most the options allow (below the balance). */
  maximumAmount: (n: number) => `The maximum amount is ${n} credits.`,
  /** A typed amount that is not a multiple of the options' increment step. */
  amountStep: (step: number) => `Amounts go in steps of ${step} credits.`,
} as const;

export const RENEWAL = {
  failed: 'Renewal Failed',
  invalidMonths: { title: 'Invalid months', description: 'Please enter a value between 1 and 50 months' },
  insufficientTitle: 'Insufficient credits',
  monthsLeft: (n: number) => `${plural(n, 'month')} left`,
  expiringSoon: 'Expiring Soon',
  quickRenew: 'Quick Renew',
  bulkRenew: 'Bulk Renew',
} as const;

export const STATUS = {
  updateFailed: { title: PROFILE.updateFailed.title, description: 'Failed to update status' },
  activate: 'Activate',
  deactivate: 'Deactivate',
} as const;

/** The shared data table's own words ('No data found' is GENERAL.noData). */
/** A CRUD page's failures and show drawer when the resource states none of its own ('category', 'server'). */
export const CRUD_PAGE = {
  createFailed: (singular: string) => `Failed to create ${singular}`,
  updateFailed: (singular: string) => `Failed to update ${singular}`,
  deleteFailed: (singular: string) => `Failed to delete ${singular}`,
  view: 'View',
  details: (Singular: string) => `${Singular} details`,
  /** A switch's value on a show page. */
  yesNo: ['Yes', 'No'] as [string, string],
};

export const DATA_TABLE = {
  matching: (n: number) => `Apply to all ${grouped(n)} matching:`,
  export: 'Export',
  exportCancel: 'Cancel export',
  /** Bytes and rows received so far. */
  exportProgress: (bytes: number, rows: number) => `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} KB, ${plural(rows, 'row')}`,
  exportFailed: 'The export failed',
  exportDone: (rows: number) => `Exported ${plural(rows, 'row')}.`,
  /** A row's actions menu, named after its row: its visible text ('Actions') comes first. */
  rowActions: (name: string) => `Actions for ${name}`,
  actions: 'Actions',
  refresh: 'Refresh',
  search: 'Search',
  details: 'Details',
  moreDetails: 'More details',
  sortBy: 'Sort by',
  selectRow: (name: string) => `Select ${name}`,
  selectPage: 'Select all on this page',
  selected: (n: number) => `${n} selected`,
  clearSelection: 'Clear selection',
  noMatch: 'Nothing matches the search or filters.',
  clearFilters: 'Clear search and filters',
  addFirst: (thing: string) => `Nothing here yet: add the first ${thing}.`,
  noTransactions: 'Credits added, recovered or spent on renewals show here as they happen.',
  noAccounts: 'No accounts yet: add the first one, with its MAC address and months.',
  noTickets: 'No tickets yet: open one when you need help from support.',
  noAnnouncements: 'No announcements yet: write the first one for your users.',
  noGlobalDiscounts: 'No global discounts yet: add one to lower a renewal price.',
  columns: 'Columns',
} as const;

/** The frame around every page: the brand, tab titles, the menu button. */
export const LAYOUT = {
  brand: 'Credit Panel',
  titleSeparator: ' · ',
  signIn: 'Sign In',
  openMenu: 'Open menu',
  mainMenu: 'Main menu',
  userMenu: 'User menu',
} as const;

/** The command palette: jump to a screen of the menu, or find an account or a member. */
export const PALETTE = {
  open: 'Search',
  /** The shortcut as the header button shows it, per platform. */
  shortcut: { mac: '⌘K', other: 'Ctrl K' },
  title: 'Command palette',
  placeholder: 'Jump to a screen, or find an account or member…',
  screens: 'Screens',
  /** Searches start at this many characters. */
  minSearch: 2,
  /** Results per searched list. */
  perList: 5,
} as const;

export const MANAGERS = {
  loadDataFailed: 'Failed to load manager data',
  deleteFailed: 'Failed to delete manager(s)',
  loadFailed: { title: GENERAL.loadFailed, description: 'Failed to load managers' },
} as const;

export const RESELLERS = {
  title: 'Resellers Management',
  add: 'Add Reseller',
  deleted: 'Reseller Deleted Successfully!',
  createFailed: 'Failed to create reseller',
  updateFailed: 'Failed to update reseller',
  deleteFailed: 'Failed to delete reseller(s)',
  suspendFailed: 'Failed to suspend resellers',
  activateFailed: 'Failed to activate resellers',
  created: 'Reseller created successfully.',
  updated: 'Reseller updated successfully.',
  bulkDone: (n: number, verb: 'deleted' | 'suspended' | 'activated') => bulkDone(n, 'reseller', verb),
} as const;

export const SETTINGS = {
  title: 'System Settings',
  trialCard: 'Trial & Account Configuration',
  featureCard: 'Feature Management',
  controlCard: 'System Control',
  summaryCard: 'Current Configuration Summary',
  fetchFailed: 'Failed to fetch system settings',
  updateFailed: 'Failed to update setting',
  unknownKey: 'Unknown setting key',
  updated: 'Setting updated successfully',
} as const;

export const SERVERS = {
  loadFailed: 'Failed to load servers',
  createFailed: 'Failed to create server',
  updateFailed: 'Failed to update server',
  deleteFailed: 'Failed to delete server',
  bulkDeleteFailed: 'Failed to delete servers',
  timeoutLabel: 'Timeout (seconds)',
  timeoutHelp:
    'How long one call to the middleware may take: connecting, waiting for its locks, every statement. A request that needs a slower server answers that it cannot be reached.',
  breakerTitle: 'Breaker',
  breakerStates: { closed: 'Closed', open: 'Open', half_open: 'Half-open' },
  breakerDetails: (failures: number, openedAt: string | null, retryAt: string | null) =>
    [
      `${failures} consecutive failed ${pluralWord(failures, 'call')}`,
      openedAt ? `open since ${openedAt}` : null,
      retryAt ? `calls refused at once until ${retryAt}, then one trial call decides` : null,
    ]
      .filter(Boolean)
      .join('; '),
} as const;

export const THEMES = {
  createFailed: 'Failed to create theme',
  updateFailed: 'Failed to update theme',
  deleteFailed: 'Failed to delete theme',
  slugRequired: 'Slug is required',
  slugInvalid: 'Slug must be lowercase letters, numbers, hyphens, underscores, and colons only',
} as const;

export const PROMOS = {
  createFailed: 'Failed to create promo',
  updateFailed: 'Failed to update promo',
  deleteFailed: 'Failed to delete promo',
  serverRequired: 'Server is required',
  creditsRequiredMin: 'Credits required must be at least 1',
  bonusCreditsMin: 'Bonus credits must be at least 1',
} as const;

export const GLOBAL_DISCOUNTS = {
  fetchFailed: 'Failed to fetch global discounts',
  fetchServersFailed: 'Failed to fetch servers',
  saveFailed: 'Failed to save global discount',
  deleteFailed: 'Failed to delete global discount',
  selectServer: 'Please select a server',
} as const;

export const ANNOUNCEMENTS = {
  fetchFailed: 'Failed to fetch announcements',
  createFailed: 'Failed to create announcement',
  updateFailed: 'Failed to update announcement',
  toggleFailed: 'Failed to toggle announcement status',
  deleteFailed: 'Failed to delete announcement',
} as const;

export const CREDIT_LEVELS = {
  loadFailed: 'Failed to load credit levels configuration.',
  updateFailed: 'Failed to update credit levels configuration.',
} as const;

export const CREDIT_OPTIONS = {
  loadFailed: 'Failed to load credit options settings',
  saveFailed: 'Failed to save credit options settings',
  resetFailed: 'Failed to reset settings',
  testFailed: 'Failed to test credit options',
} as const;

export const DASHBOARD_LABELS = {
  totalUsers: 'Total Users',
  activeUsers: 'Active Users',
  expiredUsers: 'Expired Users',
  totalManagers: 'Total Managers',
  totalResellers: 'Total Resellers',
  totalDealers: 'Total Dealers',
  monthlyRevenue: 'Monthly Revenue',
  creditsSold: 'Credits Sold',
  systemHealth: 'System Health',
  performance: 'Performance',
  recentTransactions: 'Recent Transactions',
} as const;

export const AUDIT_LABELS = {
  totalLogs: 'Total Logs',
  modules: 'Modules',
  actions: 'Actions',
  recentActivity: 'Recent Activity',
} as const;

export const ANNOUNCEMENT_SECTIONS = {
  urgent: 'Urgent',
  high: 'High Priority',
  general: 'General',
} as const;

export const DIALOGS = {
  addCredits: 'Add Credits',
  recoverCredits: 'Recover Credits',
  confirmDelete: 'Confirm Delete',
} as const;

/** Rules of the admin configuration forms as templates, so each message is written once. */
export const FIELD_RULES = {
  between: (label: string, min: number, max: number) => `${label} must be between ${min} and ${max}`,
  atLeast: (label: string, min: number) => `${label} must be at least ${min}`,
  tooLong: (max: number) => `Must be at most ${max} characters`,
  boolean: (label: string) => `${label} must be true or false`,
  notBelow: (label: string, other: string) => `${label} must be greater than or equal to ${other}`,
  positiveIntegers: (label: string) => `${label} must be comma-separated positive integers`,
  validDate: 'Please enter a valid date',
} as const;

export const SERVER_FORM = {
  hostRequired: 'Database host is required',
  hostInvalid: 'Database host must be a host name or an IP address',
  usernameRequired: 'Database username is required',
  dbNameRequired: 'Database name is required',
  portInvalid: 'Port must be a number between 1 and 65535',
  timeoutInvalid: (min: number, max: number) => `Timeout must be a whole number of seconds between ${min} and ${max}`,
  statusInvalid: 'Status must be active or inactive',
  connectionStatusInvalid: 'Connection status must be online or offline',
  driverInvalid: 'Driver must be local or ministra',
  nameTaken: 'A server with this name already exists',
  appKeyRequired: 'Database passwords are stored encrypted with APP_KEY: set the APP_KEY environment variable on the server to save one.',
  selectedInvalid: 'The selected server is invalid.',
  usedByAccounts: (n: number) => `This server is still used by ${plural(n, 'account')}. Move or delete them first.`,
  usedByManagers: (n: number) => `This server is still assigned to ${plural(n, 'manager')}. Assign them another server first.`,
} as const;

export const THEME_FORM = {
  slugTaken: 'The slug has already been taken.',
  colorInvalid: 'Colours must be hex values such as #1677ff',
  algorithmInvalid: 'Algorithm must be default, dark or compact',
} as const;

export const DISCOUNT_FORM = {
  validUntilAfterFrom: 'Valid until must be after valid from',
} as const;

/** Managers, resellers and dealers: form, delete and credit-move messages of our own. */
export const HIERARCHY = {
  passwordTooShort: 'The password must be at least 8 characters.',
  usernameFormat: 'The username may contain only letters, numbers, dots, dashes, underscores and @.',
  statusInvalid: 'The status must be active, inactive or suspended.',
  statusRequired: 'The is_active field is required.',
  serverInvalid: SERVER_FORM.selectedInvalid,
  managerRequired: 'Please select a manager.',
  managerInvalid: 'The selected manager is invalid.',
  managerAdminOnly: 'Only an administrator may choose the manager.',
  resellerRequired: 'Please select a reseller.',
  resellerInvalid: 'The selected reseller is invalid.',
  actionInvalid: 'The action must be renew or recover.',
  minimumToCreate: (n: number, what: string) => `You need at least ${n} credits to create a ${what}.`,
  minimumCreditLimit: (n: number) => `The minimum amount is ${plural(n, 'credit')}.`,
  initialCreditsDirectChildOnly: 'Only its direct parent can give initial credits to a new user. Create it with 0 credits; its parent can add credits later.',
  deleteHasCredits: (n: number) => `This user still holds ${n} credits. Recover them before deleting.`,
  deleteHasChildren: (n: number, what: string) => `This user still has ${plural(n, what)}. Delete or move them before deleting.`,
  deleteHasAccounts: (n: number) => `This user still owns ${plural(n, 'account')}. Delete or move them before deleting.`,
  idempotencyMismatch: 'This Idempotency-Key was already used with a different request.',
  idempotencyKeyInvalid: 'The Idempotency-Key header must be 1 to 255 characters.',
  creditsAdded: 'Credits added successfully.',
  creditsRecovered: 'Credits recovered successfully.',
  recoveryNone: 'No paid credits available to recover.',
  recoveryAvailable: (paid: number) => `Up to ${paid} paid credits can be recovered.`,
  recoveryBonusWarning: (bonus: number) => `Recovering all paid credits also removes ${bonus} bonus credits.`,
  recoveryBonusTakenBack: (bonus: number) => `This recovery also takes back ${bonus} bonus credits earned by these credits.`,
  recoveryBonusSpent: (spent: number) =>
    `${spent} bonus credits earned by these credits were already spent: recovering them pays those back from the paid credits first.`,
  historyInvalid: 'The selected transaction cannot be recovered.',
  historyAlreadyRecovered: 'This transaction has already been recovered.',
  promoted: 'Dealer promoted to reseller successfully.',
  created: (what: string) => `${what} created successfully.`,
  updated: (what: string) => `${what} updated successfully.`,
  deleted: (what: string) => `${what} deleted successfully.`,
  statusUpdated: 'Status updated successfully.',
} as const;

/** End-user accounts, renewals, auto-renew, MAC checks and user search (our own). */
/** The hierarchy tree (docs/domain.md#the-hierarchy-tree). */
export const HIERARCHY_TREE = {
  title: 'Hierarchy',
  loadFailed: 'Failed to load the hierarchy',
  expiringWindow: 'Expiring within',
  search: 'Find a member',
  branch: 'Branch',
  balance: 'Balance',
  accounts: 'Accounts',
  active: 'Active',
  expiring: (days: string) => `Expiring in ${plural(Number(days), 'day')}`,
  window: (days: string) => plural(Number(days), 'day'),
  blocked: 'Blocked',
  blockedWhy: (status: string) => (status === 'active' ? 'A member above is not active' : `Status: ${status}`),
  openAccounts: 'Accounts',
  openExpiring: 'Expiring accounts',
  openTransactions: 'Transactions',
  empty: 'No managers, resellers or dealers below you yet.',
  windowInvalid: `The window must be one of: ${EXPIRING_WINDOWS.join(', ')} days.`,
} as const;

/** The limits a user above sets on a member (docs/domain.md#caps). */
export const CAPS = {
  title: 'Limits',
  maxAccounts: 'Maximum live accounts',
  trialsPerDay: 'Trials per day',
  creditsPerDay: 'Credits it may give per day',
  noLimit: 'No limit',
  help: 'Empty means no limit. Days are UTC days.',
  saved: (username: string) => `Limits of ${username} saved.`,
  saveFailed: 'Failed to save the limits',
  /** The refusals: whose limit, and what it allows. */
  accountsReached: (username: string, max: number) => `The branch of ${username} may have at most ${plural(max, 'live account')}.`,
  trialsReached: (username: string, max: number) => `The branch of ${username} may start at most ${plural(max, 'trial')} a day.`,
  creditsReached: (max: number, left: number) => `You may give at most ${plural(max, 'credit')} a day; ${plural(left, 'credit')} left today.`,
  /** The capped user's own view (its dashboard). */
  yours: 'Your limits',
  usage: (used: number, max: number) => `${used} of ${max}`,
} as const;

/** Bulk renew, suspend, activate and message on a selection or on everything a filter matches (docs/domain.md#bulk-by-filter). */
/** The accounts list's bar names the actions by these; the rest of BULK_FILTER loads with its dialog. */
export const BULK_ACTION_LABELS = { renew: 'Renew', suspend: 'Suspend', activate: 'Activate', message: 'Send message' } as const;

/** Moving end-user accounts to another owner in the caller's subtree (docs/domain.md#moves). */
export const ACCOUNT_MOVES = {
  title: 'Move accounts',
  action: 'Move',
  newOwner: 'New owner',
  newOwnerRequired: 'Choose the new owner.',
  preview: (n: number, owner: string) => `${plural(n, 'account')} will move to ${owner}.`,
  alreadyThere: (n: number) => `${plural(n, 'account')} already belong to them and stay as they are.`,
  ledgerUntouched: 'Balances and the ledger stay as they are; the accounts keep their expiry and server.',
  refusedTitle: 'These accounts cannot move',
  otherServer: (server: string) => `It is on ${server}, not on the new owner's server.`,
  ownerNotActive: 'The new owner is not active, or a member above it is not.',
  refused: (n: number) => `${plural(n, 'account')} cannot move: nothing was moved.`,
  done: (n: number, owner: string) => `${plural(n, 'account')} moved to ${owner}.`,
  failed: 'Failed to move the accounts',
} as const;

export const ACCOUNTS = {
  loginTaken: 'This login is already used on this server.',
  macTaken: 'This MAC address is already registered on this server.',
  serverRequired: PROMOS.serverRequired,
  trialsDisabled: 'Trial accounts are disabled.',
  trialWithMonths: 'A trial account cannot be bought for months.',
  trialWhat: 'trial account',
  trialDeviceUsed: (days: number) => `This device (MAC address) already had a trial in the last ${plural(days, 'day')}: one trial per device in that period.`,
  trialDailyLimit: (n: number) =>
    n === 0
      ? 'Trial accounts cannot be created: the daily trial limit is 0.'
      : `You have reached the daily limit of ${plural(n, 'trial account')}. Try again tomorrow (UTC).`,
  expiryAdminOnly: 'Only an administrator can set the expiry date directly. Renew the account instead.',
  bonusPeriod: 'This promo account is in its bonus period and cannot be renewed until one month before it expires.',
  recoverTooMany: (n: number) => `Only ${plural(n, 'unused whole month')} can be recovered from this account.`,
  autoRenewEndPast: 'The auto-renew end date cannot be in the past.',
  accountIdsRequired: 'Select at least one account.',
  bulkTooMany: (n: number) => `At most ${n} accounts at a time.`,
  messageRequired: 'Message is required',
  macNotFound: 'No account with this MAC address was found.',
  macElsewhere: 'This MAC address is registered to an account outside your accounts.',
  macFound: 'MAC address found.',
  macSeveralServers: 'This MAC address is used on several servers. Choose the server.',
  created: 'Account created successfully.',
  updated: 'Account updated successfully.',
  deleted: 'Account deleted successfully.',
  renewed: 'Account renewed successfully.',
  recovered: 'Months recovered successfully.',
  deviceReset: 'Device reset successfully.',
  autoRenewEnabled: 'Auto-renew enabled.',
  autoRenewDisabled: 'Auto-renew disabled.',
  bulkDone: (n: number, verb: 'suspended' | 'activated' | 'renewed' | 'messaged') => bulkDone(n, 'account', verb),
  autoRenewOwnerInactive: 'The account owner is not active: auto-renewal is stopped.',
  serverUnavailable: (server: string) => `The server ${server} cannot be reached right now. Nothing was changed and no credits were spent; try again in a few minutes.`,
  middlewareRefused: (server: string) => `The server ${server} refused the change. Nothing was changed and no credits were spent.`,
  middlewareBusy: 'Another change to this account is still being applied on its server. Nothing was changed and no credits were spent; try again in a moment.',
  changedMeanwhile: 'This account changed while the change was being applied. Nothing was changed and no credits were spent; try again.',
  middlewareWriteRateLimit: 'Too many account changes. Please wait a minute before trying again.',
} as const;

/** The admin configuration screens: labels and their success messages, like the resellers' ones. */
export const CONFIG_SCREENS = {
  checkConnection: 'Check',
  connectionChecked: (name: string, status: string) => `Connection check of ${name}: ${status}`,
  connectionCheckFailed: 'Failed to check the server connection',
  themeActivated: 'Theme activated successfully.',
  themeDeactivated: 'Theme deactivated successfully.',
  themeStatusFailed: 'Failed to update theme status',
  totalCredits: (total: number) => `Total credits: ${total}`,
  discountCreated: 'Global discount created successfully.',
  discountUpdated: 'Global discount updated successfully.',
  discountDeleted: 'Global discount deleted successfully.',
  unlimited: 'Unlimited',
  maintenanceWarning:
    'While maintenance mode is on, every user except administrators is locked out: the panel shows them a maintenance page and the API answers their calls with 503.',
  maintenanceOn: 'Maintenance mode is ON: system access is disabled for everyone except administrators.',
  creditLevelsUpdated: 'Credit levels configuration updated successfully.',
  creditOptionsSaved: 'Credit options settings saved successfully.',
  creditOptionsReset: 'Credit options settings reset to the defaults.',
  resetConfirm: 'Reset the credit options settings to the defaults?',
  creditOptionsTitle: 'Credit Options Settings',
  maintenanceMode: 'Maintenance Mode',
} as const;

/**
 * The confirmation of a system switch whose effect reaches other users: what turning it on or off
 * does, said before anything is saved.
 */
const twoFactorEffect = (who: string) => ({
  on: `Every one of the ${who} without two-factor sign-in is taken to set it up at once and can do nothing else until it has; none of them can turn it off.`,
  off: `The ${who} may sign in with their password alone again, and turn their second factor off.`,
});

export const SETTING_SWITCHES = {
  confirmTitle: (label: string, on: boolean) => `${on ? 'Turn on' : 'Turn off'} ${label}?`,
  turnOn: 'Turn on',
  turnOff: 'Turn off',
  effects: {
    maintenance_mode: {
      on: 'Every manager, reseller and dealer will be locked out of the panel until you turn it off: the panel shows them a maintenance notice, their sign-ins are refused and the API answers their calls with 503. Administrators keep working.',
      off: 'Managers, resellers and dealers can sign in and use the panel again.',
    },
    enable_trials: {
      on: 'Managers, resellers and dealers can create trial accounts again, within the trial limits.',
      off: 'Nobody can create a trial account until you turn it on again. Existing trial accounts keep running.',
    },
    enable_promos: {
      on: 'Credit moves earn bonus credits again: credit levels for managers, user promos for resellers and dealers (when their switch is on).',
      off: 'No credit move earns bonus credits until you turn it on again, for every manager, reseller and dealer. Bonus credits already given stay.',
    },
    enable_reseller_dealer_promos: {
      on: 'Credits given to resellers and dealers earn the bonus of their server’s active user promos again.',
      off: 'Credits given to resellers and dealers earn no promo bonus until you turn it on again. Bonus credits already given stay.',
    },
    global_discounts_enabled: {
      on: 'Renewals by managers, resellers and dealers are priced with the active global discounts again.',
      off: 'Every renewal is charged the regular price until you turn it on again: no global discount applies.',
    },
    two_factor_admin: twoFactorEffect('administrators'),
    two_factor_manager: twoFactorEffect('managers'),
    two_factor_reseller: twoFactorEffect('resellers'),
    two_factor_dealer: twoFactorEffect('dealers'),
    view_as_can_act: {
      on: 'A parent viewing the panel as a user below it can act as that user: every change is audited with both names.',
      off: 'Viewing the panel as a user below is read only again: every change answers 403.',
    },
  },
} as const;

/** The system switches; each one's effect reaches other users. */
export type SettingSwitch = keyof typeof SETTING_SWITCHES.effects;

/** The bar every admin screen shows while maintenance mode is on. */
export const MAINTENANCE_BAR = {
  text: 'Maintenance mode is on: managers, resellers and dealers are locked out of the panel.',
  manage: 'Turn it off in System Settings',
} as const;

/** The end-user accounts screens of the panel: titles, expiry display, dialogs. */
export const ACCOUNT_SCREEN = {
  title: 'Users',
  add: 'Add User',
  createTitle: 'Create User',
  editTitle: 'Edit User',
  quickRenewTitle: 'Quick Renew Account',
  bulkRenewTitle: 'Bulk Renew Accounts',
  loadFailed: 'Failed to load users',
  createFailed: 'Failed to create user',
  updateFailed: 'Failed to update user',
  deleteFailed: 'Failed to delete user',
  actionFailed: 'Action failed',
  expired: 'Expired',
  noExpiry: 'No expiry',
  daysLeft: (n: number) => `${plural(n, 'day')} left`,
  expiryFilter: (value: string) => (value === 'expired' ? 'Expired' : `Within ${plural(Number(value), 'day')}`),
  trialEnding: 'Trial ending',
  trialEndingFilter: (value: string) => `Trial ends within ${plural(Number(value), 'day')}`,
  sendMessage: 'Send Message',
  stbInfo: 'STB Info',
  transactions: 'Transactions',
  autoRenew: 'Auto-renew',
  resetDevice: 'Reset Device',
  resetDeviceConfirm: (login: string) => `Reset the device of ${login}? The box will have to sign in again.`,
  macCheck: 'MAC Check',
  userSearch: 'User Search',
  searchPlaceholder: 'Search login, name or MAC...',
  macSearchPlaceholder: 'e.g. 00:1A:79:12:34:56',
} as const;

/** Panel texts of the managers, resellers and dealers screens and the credit dialogs (our own). */
export const HIERARCHY_PANEL = {
  credits: 'Credits',
  lowCredits: (n: number) => `Below ${plural(n, 'credit')}`,
  /** Before a reseller or dealer is saved under another parent: what goes with it (docs/domain.md#moves). */
  movePreview: (who: string, to: string, dealers: number | null, accounts: number) =>
    `${who} moves to ${to} with ${dealers === null ? '' : `${plural(dealers, 'dealer')} and `}${plural(accounts, 'account')} of its branch. Balances and the ledger stay as they are.`,
  /** A status switch's name: whose, and the state it shows (a name contains the visible text). */
  statusOf: (username: string, state: string) => `Status of ${username}: ${state}`,
  resellersLoadFailed: 'Failed to load resellers',
  dealersLoadFailed: 'Failed to load dealers',
  transactionsLoadFailed: 'Failed to load transactions',
  managerCreateFailed: 'Failed to create manager',
  managerUpdateFailed: 'Failed to update manager',
  managersDeleted: (n: number) => bulkDone(n, 'manager', 'deleted'),
  dealerCreateFailed: 'Failed to create dealer',
  dealerUpdateFailed: 'Failed to update dealer',
  dealerDeleteFailed: 'Failed to delete dealer(s)',
  dealerLoadDataFailed: 'Failed to load dealer data',
  dealersDeleted: (n: number) => bulkDone(n, 'dealer', 'deleted'),
  promoteFailed: 'Failed to promote dealer',
  recoveryHistoryFailed: 'Failed to load recovery history',
  recoverFailed: 'Failed to Recover Credits',
  recoveryHistory: 'Recovery History',
  promoteToReseller: 'Promote to Reseller',
  suspendAllTitle: 'Suspend Resellers',
  suspendAllBody: (n: number) => `Suspend all ${n} selected ${pluralWord(n, 'reseller')}? They will not be able to sign in until activated again.`,
  passwordHidden: 'Passwords are stored encrypted and cannot be shown.',
  /** The status column's tag on a user whose branch an ancestor stopped. */
  blockedBy: (role: string, username: string) => `Blocked by ${role} ${username}`,
  blockedByHint: (role: string, username: string, status: string) =>
    `The ${role} ${username} above is ${status}: this user cannot sign in, spend or move credits until it is active again. Its end-user accounts keep their service.`,
  /**
   * What stopping users stops, in the status-change and bulk-suspend confirmations: the users below
   * (a count, or null when it could not be read) and the end-user accounts of the branch.
   */
  stopImpact: (below: { resellers: number | null; dealers: number | null; accounts: number | null }, many = false) => {
    const count = (n: number | null, what: string) => (n === null ? `every ${what}` : n > 0 ? plural(n, what) : null);
    const users = [count(below.resellers, 'reseller'), count(below.dealers, 'dealer')].filter((u) => u !== null);
    const subject = many ? 'They' : 'It';
    const branch = users.length > 0 ? `${subject} and the ${users.join(' and ')} below ${many ? 'them' : 'it'}` : subject;
    const accounts = below.accounts === null ? 'The end-user accounts' : `The ${plural(below.accounts, 'end-user account')}`;
    return `${branch} will not be able to sign in, spend or move credits until activated again. ${accounts} of the branch keep their service.`;
  },
} as const;

// ---- Communication and oversight: tickets, announcements, audit logs, analytics ----

/** Tickets (all ours: no ticket message was given as a requirement). */
export const TICKETS = {
  title: 'Tickets',
  add: 'New Ticket',
  subjectRequired: 'Subject is required',
  messageRequired: ACCOUNTS.messageRequired,
  categoryRequired: 'Please select a category',
  categoryInvalid: 'The selected category is invalid.',
  priorityInvalid: 'Priority must be low, medium, high or urgent',
  statusInvalid: 'Status must be open or closed',
  nothingToUpdate: 'Nothing to update.',
  ownerOnly: 'Only the person who opened the ticket can change its subject, message or category.',
  closedNoReply: 'This ticket is closed. Reopen it to reply.',
  created: 'Ticket created successfully.',
  updated: 'Ticket updated successfully.',
  replied: 'Reply sent.',
  closed: 'Ticket closed.',
  reopened: 'Ticket reopened.',
  deleted: 'Ticket deleted successfully.',
  createFailed: 'Failed to create ticket',
  updateFailed: 'Failed to update ticket',
  replyFailed: 'Failed to send reply',
  deleteFailed: 'Failed to delete ticket',
  loadFailed: 'Failed to load tickets',
  ticketLoadFailed: 'Failed to load ticket',
  unread: 'Unread',
  close: 'Close Ticket',
  reopen: 'Reopen',
  reply: 'Reply',
  thread: 'Conversation',
  noReplies: 'No replies yet.',
} as const;

/** Announcement forms and screens, beside the ANNOUNCEMENTS failures. */
export const ANNOUNCEMENT_FORM = {
  titleRequired: 'Title is required',
  contentRequired: 'Content is required',
  typeInvalid: 'Type must be info, warning, success or error',
  priorityInvalid: TICKETS.priorityInvalid,
  rolesInvalid: 'Target roles must be manager, reseller or dealer',
  usersInvalid: 'The selected users are invalid.',
  usersNeedRole: 'Choose a target role before choosing users.',
  expiresAfterStart: 'The expiry must be after the start',
  created: 'Announcement created successfully.',
  updated: 'Announcement updated successfully.',
  deleted: 'Announcement deleted successfully.',
  activated: 'Announcement activated.',
  deactivated: 'Announcement deactivated.',
  title: 'Announcements',
  add: 'New Announcement',
  createTitle: 'Create Announcement',
  editTitle: 'Edit Announcement',
  total: 'Total',
  active: 'Active',
  scheduled: 'Scheduled',
  expired: 'Expired',
  inactive: 'Inactive',
  clear: 'Clear',
  everyone: 'Everyone',
  newBadge: 'new',
  expiringSoon: RENEWAL.expiringSoon,
  noAnnouncements: 'No announcements',
  notifications: 'Notifications',
  nothingUnread: 'Nothing new.',
  ticketReplies: 'Ticket replies',
  unreadAnnouncements: 'Unread announcements',
  chooseRoleFirst: 'Choose a target role first',
} as const;

/** The audit log viewer (its load failures are silent). */
export const AUDIT = {
  title: 'Audit Logs',
  details: 'Audit Log Details',
  oldValues: 'Old Values',
  newValues: 'New Values',
  noValues: 'None',
  clear: ANNOUNCEMENT_FORM.clear,
  dateRangeInvalid: 'The end date must not be before the start date',
} as const;

/** The analytics page (admin). */
export const ANALYTICS = {
  title: 'Analytics',
  creditsFlow: 'Credits flowing down',
  renewals: 'Renewals and new accounts',
  expiring: 'Accounts expiring',
  topResellers: 'Top resellers by credits spent',
  topDealers: 'Top dealers by credits spent',
  exportCsv: 'Export CSV',
  loadFailed: 'Failed to load analytics',
  rangeTooLong: 'Choose a range of at most ten years',
} as const;

/** The dashboard's per-role pieces beside DASHBOARD_LABELS. */
export const DASHBOARD_PANEL = {
  myCredits: 'My Credits',
  expiringUsers: (days: number) => `Expiring in ${plural(days, 'day')}`,
  trialsEnding: (days: number) => `Trials ending in ${plural(days, 'day')}`,
  lowCreditMembers: (n: number) => `Members below ${plural(n, 'credit')}`,
  creditsUnit: 'credits',
  adminTools: 'Admin tools',
  quickLinks: 'Quick links',
  transaction: 'Transaction',
  type: 'Type',
  amount: 'Amount',
  date: 'Date',
} as const;

export const STATEMENT = {
  title: 'Statement',
  open: 'Statement',
  mine: 'My statement',
  range: 'Period',
  opening: 'Opening balance',
  closing: 'Closing balance',
  net: 'Net change',
  entries: 'Entries',
  totals: 'Totals by type',
  print: 'Print',
  download: 'Download CSV',
  truncated: (shown: number, all: number) => `The first ${shown} of ${all} entries are shown; the CSV has them all.`,
  loadFailed: 'Could not load the statement',
  /** The CSV's summary lines, in its Type column. */
  openingLine: 'OPENING BALANCE',
  closingLine: 'CLOSING BALANCE',
  totalLine: (type: string) => `TOTAL ${type}`,
  totalRemark: (count: number) => plural(count, 'entry', 'entries'),
};

/** Notifications: the events, the page, the profile's channels, the SMTP settings (docs/domain.md#notifications). */
/** What the header's notifications drawer says of the page; the rest of NOTIFICATIONS loads with the page. */
export const NOTIFICATIONS_LINK = { title: 'Notifications', openPage: 'All notifications', unread: 'Unread' } as const;
