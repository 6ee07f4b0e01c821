export { DASHBOARD_CARDS, type DashboardCard, type DashboardFigures, StatCards, cardsFor } from './cards';
export { RecentTransactions, type RecentTransaction } from './RecentTransactions';
export { SidePanels, type SystemFigures } from './SidePanels';
