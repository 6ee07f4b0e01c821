/**
 * The dashboard per role: the cards each role sees (a dealer no Total Managers, credits with their
 * unit, a balance below admin), recent transactions with amount and date in columns of their own,
 * and system internals for admin only; CSV export of what a table shows.
 */
import './dom';
import { render, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_LABELS, DASHBOARD_PANEL, EXPIRY_WARNING_DAYS, LOW_CREDITS_THRESHOLD, TRIAL_ENDING_DAYS } from '../../src/contract';
import { RecentTransactions, SidePanels, StatCards, cardsFor } from '../../src/features/dashboard';
import { csvCell, toCsv } from '../../src/components/export/csv';

const FIGURES = {
  total_users: 12,
  active_users: 9,
  expired_users: 3,
  expiring_users: 2,
  trials_ending: 5,
  low_credit_members: 4,
  total_managers: 2,
  total_resellers: 4,
  total_dealers: 8,
  credits_sold: 1500,
  monthly_revenue: 42,
  my_credits: 750,
};

describe('dashboard cards per role', () => {
  it('gives each role the figures that mean something to it', () => {
    const labels = (role: string | null) => cardsFor(role).map((c) => c.label);
    expect(labels('admin')).toEqual([
      DASHBOARD_LABELS.totalUsers,
      DASHBOARD_LABELS.activeUsers,
      DASHBOARD_LABELS.expiredUsers,
      DASHBOARD_PANEL.expiringUsers(EXPIRY_WARNING_DAYS),
      DASHBOARD_PANEL.trialsEnding(TRIAL_ENDING_DAYS),
      DASHBOARD_PANEL.lowCreditMembers(LOW_CREDITS_THRESHOLD),
      DASHBOARD_LABELS.totalManagers,
      DASHBOARD_LABELS.totalResellers,
      DASHBOARD_LABELS.totalDealers,
      DASHBOARD_LABELS.monthlyRevenue,
      DASHBOARD_LABELS.creditsSold,
    ]);
    expect(labels('manager')).not.toContain(DASHBOARD_LABELS.totalManagers);
    expect(labels('manager')).toContain(DASHBOARD_LABELS.totalResellers);
    expect(labels('reseller')).not.toContain(DASHBOARD_LABELS.totalResellers);
    expect(labels('reseller')).toContain(DASHBOARD_LABELS.totalDealers);
    expect(labels('dealer')).toEqual([
      DASHBOARD_PANEL.myCredits,
      DASHBOARD_LABELS.totalUsers,
      DASHBOARD_LABELS.activeUsers,
      DASHBOARD_LABELS.expiredUsers,
      DASHBOARD_PANEL.expiringUsers(EXPIRY_WARNING_DAYS),
      DASHBOARD_PANEL.trialsEnding(TRIAL_ENDING_DAYS),
      DASHBOARD_LABELS.monthlyRevenue,
    ]);
    expect(labels('superuser')).toEqual([
      DASHBOARD_LABELS.totalUsers,
      DASHBOARD_LABELS.activeUsers,
      DASHBOARD_LABELS.expiredUsers,
      DASHBOARD_PANEL.expiringUsers(EXPIRY_WARNING_DAYS),
      DASHBOARD_PANEL.trialsEnding(TRIAL_ENDING_DAYS),
      DASHBOARD_LABELS.monthlyRevenue,
    ]);
  });

  it('writes credits with their unit, and the balance below admin', () => {
    const view = render(<StatCards figures={FIGURES} role="dealer" loading={false} />, { wrapper: MemoryRouter });
    expect(within(view.getByTestId('card-my_credits')).getByText(DASHBOARD_PANEL.creditsUnit)).toBeTruthy();
    expect(view.getByTestId('card-my_credits').textContent).toContain('750');
    expect(view.getByTestId('card-monthly_revenue').textContent).toMatch(/42\s*credits/);
    expect(view.getByTestId('card-total_users').textContent).not.toContain(DASHBOARD_PANEL.creditsUnit);
    expect(view.queryByTestId('card-total_managers')).toBeNull();
  });

  it('opens the accounts a figure counts: the expired ones, and those expiring soon', () => {
    const view = render(<StatCards figures={FIGURES} role="reseller" loading={false} />, { wrapper: MemoryRouter });
    const linkOf = (key: string) => view.getByTestId(`card-${key}`).closest('a');
    const filtersOf = (key: string) => {
      const url = new URL(linkOf(key)!.getAttribute('href')!, 'http://panel');
      return [url.pathname, url.searchParams.get('filters[0][field]'), url.searchParams.get('filters[0][value]')];
    };
    expect(filtersOf('expired_users')).toEqual(['/users', 'expiry', 'expired']);
    expect(filtersOf('expiring_users')).toEqual(['/users', 'expiry', String(EXPIRY_WARNING_DAYS)]);
    expect(view.getByTestId('card-expiring_users').textContent).toContain('2');
    // The reminders: trials ending, and the caller's own members low on credits in its child list.
    expect(filtersOf('trials_ending')).toEqual(['/users', 'trial_ending', String(TRIAL_ENDING_DAYS)]);
    expect(view.getByTestId('card-trials_ending').textContent).toContain('5');
    expect(filtersOf('low_credit_members')).toEqual(['/dealers', 'low_credits', String(LOW_CREDITS_THRESHOLD)]);
    expect(view.getByTestId('card-low_credit_members').textContent).toContain('4');
    // A figure with no list of its own is no link.
    expect(linkOf('total_dealers')).toBeNull();
  });
});

describe('recent transactions and side panels', () => {
  it('puts amount and date in columns of their own', () => {
    const view = render(
      <RecentTransactions
        loading={false}
        rows={[{ id: 1, transaction_number: 'TX-1', type: 'USED', credits: -5, username: 'dealer', date: '2030-01-02T03:04:00.000Z' }]}
      />,
    );
    const amount = view.getAllByTestId('transaction-amount')[0];
    const date = view.getAllByTestId('transaction-date')[0];
    expect(amount.textContent).toBe(`-5 ${DASHBOARD_PANEL.creditsUnit}`);
    expect(date.textContent).toMatch(/^2030-01-0\d \d\d:\d\d$/);
    expect(amount.closest('td')).not.toBe(date.closest('td'));
  });

  it('says one credit in the singular, on a card and in a transaction', () => {
    const cards = render(<StatCards figures={{ ...FIGURES, my_credits: 1 }} role="dealer" loading={false} />, { wrapper: MemoryRouter });
    expect(cards.getByTestId('card-my_credits').textContent).toMatch(/1\s*credit$/);
    const view = render(
      <RecentTransactions
        loading={false}
        rows={[{ id: 1, transaction_number: 'TX-1', type: 'ADD', credits: 1, username: 'dealer', date: '2030-01-02T03:04:00.000Z' }]}
      />,
    );
    expect(view.getAllByTestId('transaction-amount')[0].textContent).toBe('+1 credit');
  });

  it('shows system internals to admin only', () => {
    const figures = { system_health: { database: 'sqlite', status: 'ok', uptime_seconds: 120 }, performance: { db_query_ms: 3, memory_mb: 80 } };
    const admin = render(
      <MemoryRouter>
        <SidePanels figures={figures} role="admin" />
      </MemoryRouter>,
    );
    expect(admin.getByTestId('system-health').textContent).toContain('Database: sqlite');
    expect(admin.getByTestId('performance').textContent).toContain('80 MB');
    expect(admin.getByRole('link', { name: /Audit Logs/ }).getAttribute('href')).toBe('/audit-logs');
    admin.unmount();
    const dealer = render(
      <MemoryRouter>
        <SidePanels figures={figures} role="dealer" />
      </MemoryRouter>,
    );
    expect(dealer.queryByTestId('system-health')).toBeNull();
    expect(dealer.queryByText(/sqlite|MB/)).toBeNull();
  });
});

describe('CSV export', () => {
  it('quotes as RFC 4180 says and keeps formula-like text as text', () => {
    expect(
      toCsv(
        [{ a: 'x,y', b: 'say "hi"', c: 3 }],
        [
          { title: 'A', value: (r) => r.a },
          { title: 'B', value: (r) => r.b },
          { title: 'C', value: (r) => r.c },
        ],
      ),
    ).toBe('A,B,C\r\n"x,y","say ""hi""",3\r\n');
    expect(csvCell('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
  });
});
