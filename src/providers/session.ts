/** The browser side of a session: token and role in localStorage under STORAGE_KEYS. */
import { STORAGE_KEYS } from '../contract';

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
  clear() {
    localStorage.removeItem(STORAGE_KEYS.token);
    localStorage.removeItem(STORAGE_KEYS.userRole);
  },
};
