export { useDebounced } from './useDebounced';
export { useColorSchemeSetting } from './useColorSchemeSetting';
