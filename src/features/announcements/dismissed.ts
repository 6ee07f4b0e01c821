/** Banner dismissals, kept for good on this device (localStorage 'dismissed-announcements'). */
import { STORAGE_KEYS } from '../../contract';

export function dismissedAnnouncements(): number[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(STORAGE_KEYS.dismissedAnnouncements) ?? '[]');
    return Array.isArray(stored) ? stored.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    return [];
  }
}

export function dismissAnnouncement(id: number): number[] {
  const ids = [...new Set([...dismissedAnnouncements(), id])];
  try {
    localStorage.setItem(STORAGE_KEYS.dismissedAnnouncements, JSON.stringify(ids));
  } catch {
    /* storage full or blocked: hidden for this visit only */
  }
  return ids;
}
