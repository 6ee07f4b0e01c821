export * from './TransactionsTable';
export * from './EntityTransactionsPage';
export * from './BackButton';
