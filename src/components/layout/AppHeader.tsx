/** Header: panel name per role, the command palette's button, credits (non-admins, links to /profile), user menu, mobile menu button. */
import { LogoutOutlined, MenuOutlined, SettingOutlined, UserOutlined, WalletOutlined } from '@ant-design/icons';
import { useLogout } from '@refinedev/core';
import { Avatar, Button, Dropdown, Layout, Space, Typography, theme } from 'antd';
import { Link, useNavigate } from 'react-router';
import { LAYOUT, PANEL_NAMES, isRole } from '../../contract';
import { useCurrentUser } from '../../providers/identity';
import { RoleBadge } from '../display';
import type { MenuEntry } from '../routing';
import type { PaletteSearch } from './CommandPalette';
import { PaletteLauncher } from './PaletteLauncher';

interface HeaderProps {
  onOpenMenu: () => void;
  mobile: boolean;
  /** The role's menu and the lists it may search, for the command palette. */
  menu: MenuEntry[];
  searches: PaletteSearch[];
}

export function AppHeader({ onOpenMenu, mobile, menu, searches }: HeaderProps) {
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
        <PaletteLauncher entries={menu} searches={searches} mobile={mobile} />
        {/* Named by its text ("Credits: 120"), which a phone only hides from sight. */}
        {user && role !== 'admin' && user.credits !== null && (
          <Link to="/profile" data-testid="header-credits">
            <Space size={4}>
              <WalletOutlined />
              <span className="app-header-credits-label">Credits:</span>
              <strong>{user.credits}</strong>
            </Space>
          </Link>
        )}
        <Dropdown menu={{ items }} trigger={['click']}>
          {/* Named by the name and role it shows; a phone shows only the avatar. */}
          <Button type="text" aria-label={mobile ? LAYOUT.userMenu : undefined} data-testid="user-menu">
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
