import type { Role } from '../../src/contract';

/**
 * The menu labels of each role in display order (spec 2), groups followed by their children. The
 * spec's Announcements links are not there while those screens are not declared: a menu entry never
 * opens a 404.
 */
export function menuLabels(role: Role): string[] {
  const menus: Record<Role, string[]> = {
    admin: ['Dashboard', 'Accounts', 'Managers', 'Resellers', 'Dealers', 'Users', 'Transactions', 'MAC Check', 'Tickets', 'Tickets', 'Ticket Categories', 'Settings', 'User Promo', 'Dealer Promo', 'Themes', 'Servers', 'System Settings'],
    manager: ['Dashboard', 'Resellers', 'Dealers', 'Users', 'Transactions', 'Tickets', 'MAC Check'],
    reseller: ['Dashboard', 'Dealers', 'Users', 'MAC Check', 'Search', 'User Search', 'Transactions', 'Tickets'],
    dealer: ['Dashboard', 'Users', 'Transactions', 'Tickets', 'MAC Check'],
  };
  return menus[role];
}
