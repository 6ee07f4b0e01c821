/** The panel: providers, resources and routes in one readable place. */
import { useNotificationProvider } from '@refinedev/antd';
import { Authenticated, Refine } from '@refinedev/core';
import routerProvider, { CatchAllNavigate, DocumentTitleHandler } from '@refinedev/react-router';
import { App as AntdApp, ConfigProvider } from 'antd';
import { BrowserRouter, Navigate, Outlet, Route, Routes } from 'react-router';
import { TOAST_MS } from './contract';
import { RequireAccess } from './components/RequireAccess';
import { StatusPopupProvider } from './components/feedback';
import { AppLayout } from './components/layout/AppLayout';
import { DashboardPage } from './pages/Dashboard';
import { LoginPage } from './pages/Login';
import { NotFoundPage } from './pages/NotFound';
import { ProfilePage } from './pages/Profile';
import { UnauthorizedPage } from './pages/Unauthorized';
import { accessControlProvider } from './providers/accessControlProvider';
import { AppConfigProvider, useAppConfig } from './providers/appConfig';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { panelResources } from './resources';
import { themeConfig } from './theme';

function Themed({ children }: { children: React.ReactNode }) {
  const { config } = useAppConfig();
  return (
    <ConfigProvider theme={themeConfig(config.theme)}>
      {/* One toast at a time (spec 9). */}
      <AntdApp notification={{ maxCount: 1, duration: TOAST_MS.default / 1000 }} message={{ maxCount: 1 }}>
        {children}
      </AntdApp>
    </ConfigProvider>
  );
}

function PanelRoutes() {
  return (
    <Refine
      dataProvider={dataProvider}
      authProvider={authProvider}
      accessControlProvider={accessControlProvider}
      routerProvider={routerProvider}
      notificationProvider={useNotificationProvider}
      resources={[
        { name: 'dashboard', list: '/', meta: { label: 'Dashboard' } },
        ...panelResources.map((r) => r.resource),
      ]}
      options={{ syncWithLocation: false, warnWhenUnsavedChanges: false, disableTelemetry: true }}
    >
      <StatusPopupProvider>
        <Routes>
          <Route
            element={
              <Authenticated key="panel" fallback={<CatchAllNavigate to="/login" />}>
                <AppLayout />
              </Authenticated>
            }
          >
            <Route index element={<DashboardPage />} />
            <Route path="/dashboard" element={<DashboardPage />} />
            <Route path="/profile" element={<RequireAccess access={['profile', 'list']}><ProfilePage /></RequireAccess>} />
            {panelResources.flatMap((r) =>
              r.routes.map((route) => (
                <Route key={route.path} path={route.path} element={<RequireAccess access={route.access}>{route.element}</RequireAccess>} />
              )),
            )}
          </Route>
          <Route
            element={
              <Authenticated key="auth-pages" fallback={<Outlet />}>
                <Navigate to="/" replace />
              </Authenticated>
            }
          >
            <Route path="/login" element={<LoginPage />} />
          </Route>
          <Route path="/unauthorized" element={<UnauthorizedPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </StatusPopupProvider>
      <DocumentTitleHandler />
    </Refine>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <AppConfigProvider>
        <Themed>
          <PanelRoutes />
        </Themed>
      </AppConfigProvider>
    </BrowserRouter>
  );
}
