export * from './core';
// The tables composed with the resources that declare themselves.
export * from './registry';
