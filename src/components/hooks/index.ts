export { useDebounced } from './useDebounced';
