/** The panel: providers, then routes and menus derived from the resource and page declarations. */
import { Authenticated, Refine } from '@refinedev/core';
import routerProvider, { CatchAllNavigate, DocumentTitleHandler } from '@refinedev/react-router';
import { App as AntdApp, ConfigProvider } from 'antd';
import { Suspense } from 'react';
import { BrowserRouter, Navigate, Outlet, Route, Routes } from 'react-router';
import { StatusPopupProvider } from './components/feedback';
import { AppLayout } from './components/layout/AppLayout';
import { PageLoading, RouteGuard } from './components/routing';
import { TOAST_MS } from './contract';
import { declarations, menuFor, panelRoutes, refineResources } from './navigation';
import { LoginPage, NotFoundPage, UnauthorizedPage } from './pages';
import { accessControlProvider } from './providers/accessControlProvider';
import { AppConfigProvider, useAppConfig } from './providers/appConfig';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { useNotificationProvider } from './providers/notificationProvider';
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
      resources={refineResources}
      options={{ syncWithLocation: false, warnWhenUnsavedChanges: false, disableTelemetry: true }}
    >
      <StatusPopupProvider>
        <Suspense fallback={<PageLoading />}>
          <Routes>
            <Route
              element={
                <Authenticated key="panel" fallback={<CatchAllNavigate to="/login" />}>
                  <AppLayout menuFor={menuFor} resources={declarations} />
                </Authenticated>
              }
            >
              {panelRoutes.map((route) => (
                <Route key={route.path} path={route.path} element={<RouteGuard route={route} />} />
              ))}
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
        </Suspense>
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
