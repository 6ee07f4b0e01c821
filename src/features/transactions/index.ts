export * from './TransactionsTable';
export * from './EntityTransactionsPage';
export * from '../../components/layout/BackButton';
export * from './StatementPage';
