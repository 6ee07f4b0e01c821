/** The signed-in frame: side menu (a drawer on small screens), header, and the page. */
import { Drawer, Grid, Layout, Typography } from 'antd';
import { useState } from 'react';
import { Outlet } from 'react-router';
import { useCurrentUser } from '../../providers/identity';
import { useAppConfig } from '../../providers/appConfig';
import { AppHeader } from './AppHeader';
import { AppMenu } from './AppMenu';
import { MaintenanceNotice } from './MaintenanceNotice';
import { type MenuEntry, type PanelResource, PageLoading } from '../routing';

const Brand = () => (
  <Typography.Title level={4} style={{ color: '#fff', margin: 0, padding: '16px 24px', whiteSpace: 'nowrap' }}>
    Credit Panel
  </Typography.Title>
);

/** `menuFor` gives a role's menu; both come from the app's declarations. */
export function AppLayout({ menuFor, resources }: { menuFor: (role: string | null) => MenuEntry[]; resources: readonly PanelResource[] }) {
  const screens = Grid.useBreakpoint();
  const mobile = !screens.lg;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { role, isLoading } = useCurrentUser();
  const { config } = useAppConfig();
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
          styles={{ body: { padding: 0, background: '#001529' }, header: { display: 'none' } }}
        >
          <Brand />
          <AppMenu entries={menuFor(role)} resources={resources} onNavigate={() => setDrawerOpen(false)} />
        </Drawer>
      ) : (
        <Layout.Sider width={240} breakpoint="lg" style={{ position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}>
          <Brand />
          <AppMenu entries={menuFor(role)} resources={resources} />
        </Layout.Sider>
      )}
      <Layout>
        <AppHeader mobile={mobile} onOpenMenu={() => setDrawerOpen(true)} />
        <Layout.Content style={{ padding: mobile ? 12 : 24 }}>
          {underMaintenance ? <MaintenanceNotice /> : <Outlet />}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
