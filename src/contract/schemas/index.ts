export * from './common';
export * from './auth';
export * from './ticketCategories';
export * from './hierarchy';
export * from './credits';
