/** Sessions, sign-in history and view-as: the values and messages panel and API share. */

/** Why a sign-in failed, or how it succeeded, as the history records it. */
export const SIGN_IN_REASONS = {
  password: 'Password',
  totp: 'Password and authenticator code',
  recovery: 'Password and recovery code',
  wrong_password: 'Wrong password',
  wrong_code: 'Wrong two-factor code',
  too_many_attempts: 'Too many attempts',
  account_disabled: 'Account disabled',
  branch_suspended: 'Branch suspended',
  maintenance: 'Maintenance mode',
} as const;
export type SignInReason = keyof typeof SIGN_IN_REASONS;

export const SIGN_IN_OUTCOMES = ['success', 'failure'] as const;

/** A view-as session ends this long after it started (or with the parent's own session, if sooner). */
export const VIEW_AS_TTL_MINUTES = 30;

export const SESSIONS = {
  title: 'Sessions',
  menu: 'Sessions',
  activeCard: 'Where you are signed in',
  historyCard: 'Sign-in history',
  current: 'This session',
  end: 'End',
  endConfirmTitle: 'End this session?',
  endConfirm: (browser: string) => `The device signed in with ${browser} is signed out at once.`,
  endCurrentConfirm: 'This is the session you are using: you are signed out at once.',
  ended: 'The session was ended.',
  endOthers: 'End all other sessions',
  endOthersConfirm: 'Every other device signed in as you is signed out at once. This session stays.',
  endedOthers: (n: number) => `${n} other session${n === 1 ? '' : 's'} ended.`,
  none: 'No other sessions.',
  columns: { browser: 'Browser', address: 'Address', created: 'Signed in', lastUsed: 'Last used', time: 'Time', outcome: 'Outcome', detail: 'Detail' },
  success: 'Success',
  failure: 'Failure',
  unknownBrowser: 'Unknown browser',
  lastLogin: 'Last sign-in',
  never: 'Never',
} as const;

export const VIEW_AS = {
  action: 'View as',
  settingLabel: 'View As May Act',
  settingHelp: 'A parent viewing the panel as a user below may change things as that user (audited with both names); otherwise viewing is read only.',
  confirmTitle: (username: string) => `View the panel as ${username}?`,
  confirmReadOnly: 'You see what they see. Nothing can be changed while viewing; it ends after 30 minutes or with the End button.',
  confirmActing: 'You see what they see and can act as them: every change is audited with both names. It ends after 30 minutes or with the End button.',
  banner: (target: string, viewer: string) => `Viewing as ${target} (signed in as ${viewer})`,
  readOnlyTag: 'Read only',
  end: 'End',
  started: (username: string) => `Viewing the panel as ${username}.`,
  endedMessage: 'Back to your own session.',
  /** The API's 403 to a change while viewing read only. */
  readOnly: 'Viewing as another user is read only: nothing can be changed. End the view to act as yourself.',
  /** The API's 403 to what no one may do through another user's session, even when acting is allowed. */
  notWhileViewing: 'Passwords, two-factor sign-in, sessions, API tokens and view-as cannot be changed while viewing as another user.',
  notViewing: 'This session is not viewing as another user.',
  inactive: 'Only an active user can be viewed as.',
} as const;
