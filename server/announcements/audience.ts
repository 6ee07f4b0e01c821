/**
 * Who reads an announcement (empty roles means everyone; users are chosen within a role). An
 * announcement is for a user when it names no role, or names the user's role and either picks no user
 * of that role (the whole role) or picks this user. Live: switched on and within its dates.
 */
import type { Kysely, Selectable } from 'kysely';
import type { AnnouncementsTable, Database } from '../db/schema';
import { parseJson } from '../db/values';

export type AnnouncementRow = Selectable<AnnouncementsTable>;

export interface Reader {
  id: number;
  role: string;
}

export const rolesOf = (row: Pick<AnnouncementRow, 'target_roles'>): string[] => parseJson<string[]>(row.target_roles, []);
export const usersOf = (row: Pick<AnnouncementRow, 'target_users'>): number[] => parseJson<number[]>(row.target_users, []);

export function isFor(row: AnnouncementRow, reader: Reader, roleOfUser: Map<number, string>): boolean {
  const roles = rolesOf(row);
  if (roles.length === 0) return true;
  if (!roles.includes(reader.role)) return false;
  const chosen = usersOf(row).filter((id) => roleOfUser.get(id) === reader.role);
  return chosen.length === 0 || chosen.includes(reader.id);
}

/** Announcements switched on and within their dates at `now` (ISO text compares in time order). */
export function liveAnnouncements(db: Kysely<Database>, now: string) {
  return db
    .selectFrom('announcements as a')
    .selectAll('a')
    .where('a.is_active', '=', 1)
    .where((eb) => eb.or([eb('a.starts_at', 'is', null), eb('a.starts_at', '<=', now)]))
    .where((eb) => eb.or([eb('a.expires_at', 'is', null), eb('a.expires_at', '>', now)]));
}

/** The live announcements for `reader`, newest first. */
export async function announcementsFor(db: Kysely<Database>, reader: Reader, now: string): Promise<AnnouncementRow[]> {
  const rows = await liveAnnouncements(db, now).orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').execute();
  const ids = [...new Set(rows.flatMap(usersOf))];
  const roleOfUser = new Map<number, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const users = await db
      .selectFrom('users')
      .select(['id', 'role'])
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const u of users) roleOfUser.set(u.id, u.role);
  }
  return rows.filter((row) => isFor(row, reader, roleOfUser));
}
