export * from './DataTable';
export * from './Pagination';
export { useKeyboardScrollable } from './scrollRegion';
