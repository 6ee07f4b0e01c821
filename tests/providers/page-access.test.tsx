/** PageAccess: the in-page role check (servers, audit logs, announcement management). */
import { Refine } from '@refinedev/core';
import { render, screen, waitFor } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { preloadResult } from '../../src/components/feedback/LazyResult';
import { PageAccess } from '../../src/components/routing';
import { ACCESS } from '../../src/contract';
import { createAccessControlProvider } from '../../src/providers/accessControlProvider';
import { http } from '../../src/providers/http';
import { identity } from '../../src/providers/identity';
import { fakeHttp } from './fakeHttp';
import { signedInAs } from './fakeAuth';

function renderAs(role: string | null) {
  const fake = fakeHttp(http);
  if (role) {
    localStorage.setItem('token', `token-${role}`);
    fake.on('GET', 'user', { status: 200, body: { id: 1, name: 'Test', username: 'test', role } });
  }
  const authProvider = signedInAs(role ? { id: 1, name: 'Test', username: 'test', role } : null);
  return render(
    <Refine authProvider={authProvider} accessControlProvider={createAccessControlProvider(fake.http)} options={{ disableTelemetry: true }}>
      <PageAccess resource="servers">servers table</PageAccess>
    </Refine>,
  );
}

// antd's Result loads on first use: loaded up front, so that transforming it on a busy machine does not eat the waits below.
beforeAll(() => preloadResult());

beforeEach(() => {
  localStorage.clear();
  identity.clear();
});

describe('PageAccess (the in-page role check)', () => {
  it('shows the page to an admin', async () => {
    renderAs('admin');
    await waitFor(() => expect(screen.getByText('servers table')).toBeTruthy());
    expect(screen.queryByText(ACCESS.denied)).toBeNull();
  });

  for (const role of ['manager', 'reseller', 'dealer']) {
    it(`refuses a ${role} with Access Denied, the admin note and the current role`, async () => {
      renderAs(role);
      await waitFor(() => expect(screen.getByText(ACCESS.denied)).toBeTruthy());
      expect(screen.queryByText('servers table')).toBeNull();
      expect(screen.getByText(ACCESS.adminOnly)).toBeTruthy();
      await waitFor(() => expect(screen.getByText(`${ACCESS.currentRole} ${role}`)).toBeTruthy());
    });
  }

  it('refuses a session without an identity', async () => {
    renderAs(null);
    await waitFor(() => expect(screen.getByText(`${ACCESS.currentRole} unknown`)).toBeTruthy());
    expect(screen.queryByText('servers table')).toBeNull();
  });
});
