/** The contract without its registry: what a resource's entry (src/contract/resources) imports, so that nothing it needs waits on the registry that imports it. */
export * from './roles';
export * from './routes';
export * from './messages';
export * from './sessions';
export * from './preferenceMessages';
export * from './constants';
export * from './mac';
export * from './entities';
export * from './schemas';
export * from './creditOptions';
export * from './settings';
export * from './slug';
export * from './lists';
export * from './format';
export * from './resource';
export * from './csv';
export * from './exports';
