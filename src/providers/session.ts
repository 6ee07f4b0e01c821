/** The browser side of a session: token and role in localStorage under STORAGE_KEYS. */
import { STORAGE_KEYS } from '../contract';

export const session = {
  token: (): string | null => localStorage.getItem(STORAGE_KEYS.token),
  role: (): string | null => localStorage.getItem(STORAGE_KEYS.userRole),
  save(token: string, role: string) {
    localStorage.setItem(STORAGE_KEYS.token, token);
    localStorage.setItem(STORAGE_KEYS.userRole, role);
  },
  setRole(role: string) {
    localStorage.setItem(STORAGE_KEYS.userRole, role);
  },
  clear() {
    localStorage.removeItem(STORAGE_KEYS.token);
    localStorage.removeItem(STORAGE_KEYS.userRole);
  },
};
