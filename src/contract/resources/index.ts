// Written by scripts/registry.mjs from the files beside it (npm run registry): do not edit.
import hierarchy from './hierarchy';
import notifications from './notifications';

/** Every resource declared by a file of its own in this folder, in file-name order. */
export const RESOURCE_ENTRIES = [hierarchy, notifications] as const;
