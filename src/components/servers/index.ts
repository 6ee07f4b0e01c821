export { useServerOptions } from './useServerOptions';
