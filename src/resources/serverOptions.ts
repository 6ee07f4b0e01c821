/** The server options hook lives with the components (account screens use it too); resources keep importing it here. */
export { useServerOptions } from '../components/servers';
