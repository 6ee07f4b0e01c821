/**
 * The contract's CHOOSABLE_COLUMNS (what the server accepts as a list's hidden columns) are exactly
 * the columns each list lets a user hide (hideableColumns of the columns its page declares, as any
 * role that may open the list sees them), so a column renamed or added on a page cannot silently drop out of the choice.
 */
import './dom';
import { type AccessControlProvider, Refine } from '@refinedev/core';
import { render, screen, waitFor } from '@testing-library/react';
import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { hideableColumns } from '../../src/components/DataTable/fit';
import { CHOOSABLE_COLUMNS, CHOOSABLE_LISTS, type ChoosableList, ROLES, type Role, can } from '../../src/contract';
import { createDataProvider } from '../../src/providers/dataProvider';
import { http } from '../../src/providers/http';
import { useCurrentUser } from '../../src/providers/identity';
import { AccountsPage } from '../../src/resources/accounts/AccountsPage';
import { AuditLogsPage } from '../../src/resources/auditLogs/list';
import { DealersList } from '../../src/resources/dealers/list';
import { ManagersList } from '../../src/resources/managers/list';
import { ResellersList } from '../../src/resources/resellers/list';
import { TransactionsPage } from '../../src/resources/transactions/list';
import { signedInAs } from './fakeAuth';
import { fakeHttp } from './fakeHttp';

interface Declared {
  dataIndex: string;
  title?: unknown;
  priority?: 'key' | 'secondary';
}

/** The columns each list with a Columns chooser declares, by its resource, as last rendered. */
const declared = vi.hoisted(() => new Map<string, Declared[]>());
vi.mock('../../src/components/DataTable', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/components/DataTable')>()),
  DataTable: ({ resource, columns, columnChooser }: { resource: string; columns: Declared[]; columnChooser?: boolean }) => {
    if (columnChooser) declared.set(resource, columns);
    return null;
  },
}));

const PAGES: Record<ChoosableList, ComponentType> = {
  accounts: AccountsPage,
  managers: ManagersList,
  resellers: ResellersList,
  dealers: DealersList,
  transactions: TransactionsPage,
  'audit-logs': AuditLogsPage,
};

function SignedIn() {
  return <span data-testid="signed-in">{useCurrentUser().role}</span>;
}

/** The names of the columns `list`'s page lets a `role` hide. */
async function hideableFor(list: ChoosableList, role: Role): Promise<string[]> {
  declared.clear();
  const Page = PAGES[list];
  const accessControlProvider: AccessControlProvider = { can: async ({ resource, action }) => ({ can: can(role, resource ?? '', action) }) };
  const view = render(
    <MemoryRouter>
      <Refine
        dataProvider={createDataProvider(fakeHttp(http).http)}
        authProvider={signedInAs({ id: 1, name: 'Someone', username: 'someone', role, credits: role === 'admin' ? null : 100 })}
        accessControlProvider={accessControlProvider}
        options={{ disableTelemetry: true }}
      >
        <SignedIn />
        <Page />
      </Refine>
    </MemoryRouter>,
  );
  // The page's columns as the role sees them: rendered with its identity loaded.
  await waitFor(() => expect(screen.getByTestId('signed-in').textContent).toBe(role));
  await waitFor(() => expect(declared.has(list)).toBe(true));
  const names = hideableColumns(declared.get(list)!).map((c) => c.dataIndex);
  view.unmount();
  return names;
}

describe('CHOOSABLE_COLUMNS', { timeout: 60_000 }, () => {
  it.each(CHOOSABLE_LISTS)('of %s are the columns its page lets a user hide', async (list) => {
    const offered = new Set<string>();
    for (const role of ROLES.filter((r) => can(r, list, 'list'))) {
      const names = await hideableFor(list, role);
      // Each role may hide only what the server keeps a choice for,
      expect(
        names.filter((name) => !(CHOOSABLE_COLUMNS[list] as readonly string[]).includes(name)),
        `${list} as a ${role}`,
      ).toEqual([]);
      names.forEach((name) => offered.add(name));
    }
    // and every name the server keeps is a column some role may hide.
    expect([...offered].sort()).toEqual([...CHOOSABLE_COLUMNS[list]].sort());
  });
});
