/** The signed-in frame: side menu (a drawer on small screens), header, and the page under its h1. */
import { Drawer, Layout } from 'antd';
import { type ReactNode, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { LAYOUT } from '../../contract';
import { useCurrentUser } from '../../providers/identity';
import { useAppConfig } from '../../providers/appConfig';
import { AppHeader } from './AppHeader';
import type { PaletteSearch } from './CommandPalette';
import { AppMenu } from './AppMenu';
import { MaintenanceBar, MaintenanceNotice } from './MaintenanceNotice';
import { PageHeadingProvider } from './PageHeading';
import { pageTitleFor } from './pageTitle';
import { useScreens } from './screens';
import { SIDER_WIDTH, contentPadding } from './geometry';
import { type MenuEntry, type PanelResource, PageLoading } from '../routing';
import './layout.css';

const Brand = () => <div style={{ color: '#fff', fontSize: 20, fontWeight: 600, padding: '16px 24px', whiteSpace: 'nowrap' }}>{LAYOUT.brand}</div>;

interface LayoutProps {
  menuFor: (role: string | null) => MenuEntry[];
  resources: readonly PanelResource[];
  /** The lists the command palette searches for a role. */
  searchesFor?: (role: string | null) => PaletteSearch[];
  /** Shown above the header on every screen (the view-as bar). */
  banner?: ReactNode;
}

/** `menuFor` gives a role's menu; it and the resources come from the app's declarations. */
export function AppLayout({ menuFor, resources, searchesFor = () => [], banner }: LayoutProps) {
  const screens = useScreens();
  const mobile = !screens.lg;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { role, isLoading } = useCurrentUser();
  const { config } = useAppConfig();
  const { pathname } = useLocation();
  const underMaintenance = config.maintenance_mode && role !== 'admin';

  // The menu, the panel name and the credits figure all follow the identity: no frame before it is known.
  if (isLoading) return <PageLoading />;

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {mobile ? (
        <Drawer
          open={drawerOpen}
          placement="left"
          onClose={() => setDrawerOpen(false)}
          width={260}
          aria-label={LAYOUT.mainMenu}
          styles={{ body: { padding: 0, background: '#001529' }, header: { display: 'none' } }}
        >
          <Brand />
          <AppMenu entries={menuFor(role)} resources={resources} onNavigate={() => setDrawerOpen(false)} />
        </Drawer>
      ) : (
        <Layout.Sider width={SIDER_WIDTH} breakpoint="lg" style={{ position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}>
          <Brand />
          <AppMenu entries={menuFor(role)} resources={resources} />
        </Layout.Sider>
      )}
      <Layout className="app-main">
        {banner}
        <AppHeader mobile={mobile} onOpenMenu={() => setDrawerOpen(true)} menu={menuFor(role)} searches={searchesFor(role)} />
        {config.maintenance_mode && role === 'admin' && <MaintenanceBar />}
        <Layout.Content className="app-content" style={{ padding: contentPadding(screens) }}>
          <PageHeadingProvider title={pageTitleFor(pathname, resources)}>{underMaintenance ? <MaintenanceNotice /> : <Outlet />}</PageHeadingProvider>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
