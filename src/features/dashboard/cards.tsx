/**
 * The dashboard's stat cards per role: each role sees the figures that mean something to it (a
 * dealer has no managers, resellers or dealers below it and sells no credits), credits carry their
 * unit, and every role below admin sees its own balance.
 */
import { Card, Col, Row } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { listUrl } from '../../components/DataTable';
import { Figure } from '../../components/display/Figure';
import {
  DASHBOARD_LABELS,
  DASHBOARD_PANEL,
  type DashboardStats,
  EXPIRY_WARNING_DAYS,
  LOW_CREDITS_THRESHOLD,
  ROLES,
  type Role,
  TRIAL_ENDING_DAYS,
  pluralWord,
} from '../../contract';

/** The figures the cards show: those of the API's dashboard answer. */
export type DashboardFigures = Pick<
  DashboardStats,
  | 'total_users'
  | 'active_users'
  | 'expired_users'
  | 'expiring_users'
  | 'trials_ending'
  | 'low_credit_members'
  | 'total_managers'
  | 'total_resellers'
  | 'total_dealers'
  | 'credits_sold'
  | 'monthly_revenue'
  | 'my_credits'
>;

export interface DashboardCard {
  key: keyof DashboardFigures;
  label: string;
  roles: readonly Role[];
  credits?: boolean;
  /** The list the card opens: the accounts its figure counts. */
  to?: string;
}

const BELOW_ADMIN: readonly Role[] = ['manager', 'reseller', 'dealer'];

export const DASHBOARD_CARDS: readonly DashboardCard[] = [
  { key: 'my_credits', label: DASHBOARD_PANEL.myCredits, roles: BELOW_ADMIN, credits: true },
  { key: 'total_users', label: DASHBOARD_LABELS.totalUsers, roles: ROLES },
  { key: 'active_users', label: DASHBOARD_LABELS.activeUsers, roles: ROLES },
  { key: 'expired_users', label: DASHBOARD_LABELS.expiredUsers, roles: ROLES, to: listUrl('/users', [['expiry', 'expired']]) },
  {
    key: 'expiring_users',
    label: DASHBOARD_PANEL.expiringUsers(EXPIRY_WARNING_DAYS),
    roles: ROLES,
    to: listUrl('/users', [['expiry', String(EXPIRY_WARNING_DAYS)]]),
  },
  {
    key: 'trials_ending',
    label: DASHBOARD_PANEL.trialsEnding(TRIAL_ENDING_DAYS),
    roles: ROLES,
    to: listUrl('/users', [['trial_ending', String(TRIAL_ENDING_DAYS)]]),
  },
  // A member asks its parent for credits: each role counts its own members, in its child list.
  ...(
    [
      ['admin', '/managers'],
      ['manager', '/resellers'],
      ['reseller', '/dealers'],
    ] as const
  ).map(([role, path]): DashboardCard => ({
    key: 'low_credit_members',
    label: DASHBOARD_PANEL.lowCreditMembers(LOW_CREDITS_THRESHOLD),
    roles: [role],
    to: listUrl(path, [['low_credits', String(LOW_CREDITS_THRESHOLD)]]),
  })),
  { key: 'total_managers', label: DASHBOARD_LABELS.totalManagers, roles: ['admin'] },
  { key: 'total_resellers', label: DASHBOARD_LABELS.totalResellers, roles: ['admin', 'manager'] },
  { key: 'total_dealers', label: DASHBOARD_LABELS.totalDealers, roles: ['admin', 'manager', 'reseller'] },
  { key: 'monthly_revenue', label: DASHBOARD_LABELS.monthlyRevenue, roles: ROLES, credits: true },
  { key: 'credits_sold', label: DASHBOARD_LABELS.creditsSold, roles: ['admin', 'manager', 'reseller'], credits: true },
];

/** The cards a role sees; an unknown role sees the account figures only. */
export const cardsFor = (role: string | null): DashboardCard[] =>
  DASHBOARD_CARDS.filter((c) => (role && (ROLES as readonly string[]).includes(role) ? c.roles.includes(role as Role) : c.roles === ROLES));

/** A card that opens the list of what it counts is a link around it. */
function OpensList({ to, children }: { to?: string; children: ReactNode }) {
  return to ? (
    <Link to={to} style={{ display: 'block' }}>
      {children}
    </Link>
  ) : (
    children
  );
}

export function StatCards({ figures, role, loading }: { figures?: DashboardFigures; role: string | null; loading: boolean }) {
  const cards = cardsFor(role);
  return (
    <Row gutter={[16, 16]}>
      {cards.map((card) => (
        <Col key={card.key} xs={24} sm={12} lg={6}>
          <OpensList to={card.to}>
            <Card data-testid={`card-${card.key}`} hoverable={card.to !== undefined}>
              <Figure
                title={card.label}
                value={Number(figures?.[card.key] ?? 0)}
                suffix={card.credits ? pluralWord(Number(figures?.[card.key] ?? 0), 'credit') : undefined}
                loading={loading}
              />
            </Card>
          </OpensList>
        </Col>
      ))}
    </Row>
  );
}
