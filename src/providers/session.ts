/** The browser side of a session: token and role in localStorage under STORAGE_KEYS. */
import { STORAGE_KEYS, type TwoFactorChallenge } from '../contract';

/**
 * The challenge a sign-in's password earned, until its code is sent: in memory only (a reload starts
 * the sign-in again), and outside the sign-in page, which Refine re-mounts while it re-checks the session.
 */
let pendingChallenge: TwoFactorChallenge['two_factor'] | null = null;

export const session = {
  token: (): string | null => localStorage.getItem(STORAGE_KEYS.token),
  role: (): string | null => localStorage.getItem(STORAGE_KEYS.userRole),
  save(token: string, role: string) {
    localStorage.setItem(STORAGE_KEYS.token, token);
    localStorage.setItem(STORAGE_KEYS.userRole, role);
    sessionStorage.removeItem(STORAGE_KEYS.sessionEnded);
  },
  /**
   * The API refused the token (a 401: expired, revoked, signed out elsewhere): clear it and remember
   * why, so the sign-in page the user lands on says the session ended instead of looking like a
   * normal visit. Kept until the next sign-in (a sign-out after it keeps it: Refine signs out on a 401).
   */
  end() {
    this.clear();
    sessionStorage.setItem(STORAGE_KEYS.sessionEnded, '1');
  },
  ended: (): boolean => sessionStorage.getItem(STORAGE_KEYS.sessionEnded) === '1',
  setRole(role: string) {
    localStorage.setItem(STORAGE_KEYS.userRole, role);
  },
  challenge: () => (pendingChallenge && Date.parse(pendingChallenge.expires_at) > Date.now() ? pendingChallenge : null),
  setChallenge(challenge: TwoFactorChallenge['two_factor'] | null) {
    pendingChallenge = challenge;
  },
  clear() {
    pendingChallenge = null;
    localStorage.removeItem(STORAGE_KEYS.token);
    localStorage.removeItem(STORAGE_KEYS.userRole);
    localStorage.removeItem(STORAGE_KEYS.viewAsParent);
  },
  /** Switches to a view-as session, keeping the parent's own to return to. */
  startViewAs(token: string, role: string) {
    const parent = { token: this.token(), role: this.role() };
    if (!parent.token) return;
    localStorage.setItem(STORAGE_KEYS.viewAsParent, JSON.stringify(parent));
    localStorage.setItem(STORAGE_KEYS.token, token);
    localStorage.setItem(STORAGE_KEYS.userRole, role);
  },
  /** Back to the parent's own session; false when no view was open. */
  leaveViewAs(): boolean {
    const stored = localStorage.getItem(STORAGE_KEYS.viewAsParent);
    localStorage.removeItem(STORAGE_KEYS.viewAsParent);
    if (!stored) return false;
    try {
      const parent = JSON.parse(stored) as { token: string; role: string | null };
      localStorage.setItem(STORAGE_KEYS.token, parent.token);
      localStorage.setItem(STORAGE_KEYS.userRole, parent.role ?? '');
      return true;
    } catch {
      return false;
    }
  },
};
