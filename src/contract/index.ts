export * from './roles';
export * from './messages';
export * from './constants';
export * from './mac';
export * from './entities';
export * from './schemas';
export * from './creditOptions';
