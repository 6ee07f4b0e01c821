/**
 * The route guard every declared route is wrapped in: for every route of the route table and every
 * role, the page renders or the user lands on /unauthorized, exactly as the access matrix says, with
 * the role read from the identity through the access-control provider.
 */
import { type AuthProvider, Refine } from '@refinedev/core';
import { act, render, waitFor } from '@testing-library/react';
import { MemoryRouter, type NavigateFunction, Route, Routes, useNavigate } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { type GuardedRoute, RouteGuard, lazyPage } from '../../src/components/routing';
import { ROLES } from '../../src/contract';
import { panelRoutes } from '../../src/navigation';
import { createAccessControlProvider } from '../../src/providers/accessControlProvider';
import { http } from '../../src/providers/http';
import { identity } from '../../src/providers/identity';
import { fakeHttp } from './fakeHttp';
import { SPEC_ROUTES, UNKNOWN_ROLE, contractRoles, specPath } from './routeTable';

const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function authFor(role: string): AuthProvider {
  return {
    login: async () => ({ success: true }),
    logout: async () => ({ success: true }),
    check: async () => ({ authenticated: true }),
    onError: async () => ({}),
    getIdentity: async () => ({ id: 1, name: 'Test', username: 'test', role }),
  };
}

let navigate: NavigateFunction;
function CaptureNavigate() {
  navigate = useNavigate();
  return null;
}

/** Each guarded route of the route table with the permission the panel declares for it (else the table's), and a page that names it. */
const guarded: GuardedRoute[] = SPEC_ROUTES.filter((r) => r.spec !== 'public').map((r) => {
  const declared = panelRoutes.find((p) => specPath(p.path) === r.path);
  const Page = () => <div>page {r.path}</div>;
  return { path: routerPath(r.path), access: declared?.access ?? r.access!, page: lazyPage(async () => ({ Page }), 'Page') };
});

beforeEach(() => {
  localStorage.clear();
  identity.clear();
});

describe.each([...ROLES, UNKNOWN_ROLE])('role %s', { timeout: 60_000 }, (role) => {
  it('opens exactly the routes the matrix allows and is sent to /unauthorized elsewhere', async () => {
    localStorage.setItem('token', `token-${role}`);
    const fake = fakeHttp(http).on('GET', 'user', { status: 200, body: { id: 1, name: 'Test', username: 'test', role } });
    const view = render(
      <MemoryRouter initialEntries={['/start']}>
        <Refine authProvider={authFor(role)} accessControlProvider={createAccessControlProvider(fake.http)} options={{ disableTelemetry: true }}>
          <CaptureNavigate />
          <Routes>
            <Route path="/start" element={<div>start</div>} />
            <Route path="/unauthorized" element={<div>denied</div>} />
            {guarded.map((route) => (
              <Route key={route.path} path={route.path} element={<RouteGuard route={route} />} />
            ))}
          </Routes>
        </Refine>
      </MemoryRouter>,
    );
    await waitFor(() => expect(view.container.textContent).toBe('start'));

    for (const route of SPEC_ROUTES.filter((r) => r.spec !== 'public')) {
      const roles = contractRoles(route);
      const allowed = role === UNKNOWN_ROLE ? route.unknownRole === true : roles !== 'public' && (roles as readonly string[]).includes(role);
      await act(async () => navigate(route.example));
      await waitFor(() => expect(view.container.textContent, `${role} on ${route.example}`).toBe(allowed ? `page ${route.path}` : 'denied'));
    }
  });
});
