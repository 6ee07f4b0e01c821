/**
 * Notifications: each user's own inbox of events (docs/domain.md#notifications), reached from the
 * header's Notifications button rather than a menu. Its schemas are in schemas/notifications.ts.
 */
import { NOTIFICATIONS_LINK, ROLES, defineResource } from '../core';

export default defineResource({
  name: 'notifications',
  label: NOTIFICATIONS_LINK.title,
  access: { list: ROLES, edit: ROLES },
  list: { search: null, sorts: ['created_at', 'id'], defaultSort: '-id', filters: ['unread', 'type'], alsoPlain: ['unread'] },
});
