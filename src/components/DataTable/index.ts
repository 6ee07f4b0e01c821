export * from './DataTable';
export * from './Pagination';
export { useKeyboardScrollable } from './scrollRegion';
export { Scrollable } from './Scrollable';
export { ListEmpty, type ListEmptyProps } from './ListEmpty';
export { StatCards } from './StatCards';
export { listUrl } from './listLocation';
