import type { Role } from '../../src/contract';

/**
 * The menu labels of each role in display order (docs/domain.md#routes-and-menus), groups followed by their children.
 */
export function menuLabels(role: Role): string[] {
  const menus: Record<Role, string[]> = {
    admin: ['Dashboard', 'Accounts', 'Managers', 'Resellers', 'Dealers', 'Users', 'Transactions', 'MAC Check', 'Tickets', 'Tickets', 'Ticket Categories', 'Settings', 'User Promo', 'Dealer Promo', 'Themes', 'Announcements', 'Servers', 'System Settings'],
    manager: ['Dashboard', 'Announcements', 'Resellers', 'Dealers', 'Users', 'Transactions', 'Tickets', 'MAC Check'],
    reseller: ['Dashboard', 'Announcements', 'Dealers', 'Users', 'MAC Check', 'Search', 'User Search', 'Transactions', 'Tickets'],
    dealer: ['Dashboard', 'Announcements', 'Users', 'Transactions', 'Tickets', 'MAC Check'],
  };
  return menus[role];
}
