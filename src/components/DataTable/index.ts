export * from './DataTable';
export * from './Pagination';
