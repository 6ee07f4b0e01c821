/** Read-only details of a manager, reseller or dealer (the resellers' View Details action). */
import { Descriptions, Drawer } from 'antd';
import { type HierarchyUser, SESSIONS } from '../../contract';
import { StatusTag, dateTime } from '../../components/display';
import { nameWithUsername } from '../../contract';
import { lastLoginText } from './rowActions';

export function UserDetailsDrawer({ user, onClose, childrenLabel }: { user: HierarchyUser | null; onClose: () => void; childrenLabel?: string }) {
  return (
    <Drawer open={user !== null} onClose={onClose} title={user ? nameWithUsername(user.name, user.username) : ''} width={420}>
      {user && (
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label="Name">{user.name}</Descriptions.Item>
          <Descriptions.Item label="Username">{user.username}</Descriptions.Item>
          <Descriptions.Item label="Role">{user.role}</Descriptions.Item>
          {user.manager && <Descriptions.Item label="Manager">{user.manager.name}</Descriptions.Item>}
          {user.reseller && <Descriptions.Item label="Reseller">{user.reseller.name}</Descriptions.Item>}
          <Descriptions.Item label="Server">{user.server?.name ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="Credits">{user.credits}</Descriptions.Item>
          <Descriptions.Item label="Paid credits">{user.paid_credits}</Descriptions.Item>
          <Descriptions.Item label="Bonus credits">{user.bonus_credits}</Descriptions.Item>
          {childrenLabel && <Descriptions.Item label={childrenLabel}>{user.total_children}</Descriptions.Item>}
          <Descriptions.Item label="Total Users">{user.total_accounts}</Descriptions.Item>
          <Descriptions.Item label="Status">
            <StatusTag status={user.status} />
          </Descriptions.Item>
          <Descriptions.Item label="Phone">{user.phone ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={SESSIONS.lastLogin}>{lastLoginText(user)}</Descriptions.Item>
          <Descriptions.Item label="Created">{dateTime(user.created_at)}</Descriptions.Item>
          <Descriptions.Item label="Updated">{dateTime(user.updated_at)}</Descriptions.Item>
        </Descriptions>
      )}
    </Drawer>
  );
}
