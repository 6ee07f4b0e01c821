/** Header: panel name per role, credits (non-admins, links to /profile), user menu, mobile menu button. */
import { LogoutOutlined, MenuOutlined, SettingOutlined, UserOutlined, WalletOutlined } from '@ant-design/icons';
import { useLogout } from '@refinedev/core';
import { Avatar, Button, Dropdown, Layout, Space, Typography, theme } from 'antd';
import { Link, useNavigate } from 'react-router';
import { LAYOUT, PANEL_NAMES, isRole } from '../../contract';
import { useCurrentUser } from '../../providers/identity';
import { RoleBadge } from '../display';

export function AppHeader({ onOpenMenu, mobile }: { onOpenMenu: () => void; mobile: boolean }) {
  const { user, role } = useCurrentUser();
  const { mutate: logout } = useLogout();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const panelName = isRole(role) ? PANEL_NAMES[role] : 'PANEL';

  const items = [
    { key: 'profile', icon: <UserOutlined />, label: 'Profile', onClick: () => navigate('/profile') },
    ...(role === 'admin' ? [{ key: 'settings', icon: <SettingOutlined />, label: 'Settings', onClick: () => navigate('/settings') }] : []),
    { type: 'divider' as const },
    { key: 'logout', icon: <LogoutOutlined />, label: 'Logout', onClick: () => logout() },
  ];

  return (
    <Layout.Header className="app-header" style={{ background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
      <div className="app-header-start">
        {mobile && <Button type="text" icon={<MenuOutlined />} aria-label={LAYOUT.openMenu} onClick={onOpenMenu} />}
        <Typography.Text strong className="app-panel-name" style={{ fontSize: token.fontSizeHeading5 }} data-testid="panel-name">
          {panelName}
        </Typography.Text>
      </div>
      <div className="app-header-end">
        {user && role !== 'admin' && user.credits !== null && (
          <Link to="/profile" data-testid="header-credits" aria-label="Credits">
            <Space size={4}>
              <WalletOutlined />
              <span className="app-header-credits-label">Credits:</span>
              <strong>{user.credits}</strong>
            </Space>
          </Link>
        )}
        <Dropdown menu={{ items }} trigger={['click']}>
          <Button type="text" aria-label="User menu" data-testid="user-menu">
            <Space>
              <Avatar size="small" icon={<UserOutlined />} />
              {!mobile && <span>{user?.name ?? user?.username}</span>}
              {!mobile && role && <RoleBadge role={role} />}
            </Space>
          </Button>
        </Dropdown>
      </div>
    </Layout.Header>
  );
}
