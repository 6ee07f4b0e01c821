/**
 * The hierarchy as a tool: the caller and every manager, reseller and dealer below it as one tree,
 * each with its balance and the accounts of its branch (live, active, expiring soon), blocked ones
 * marked (docs/domain.md#the-hierarchy-tree). Its schemas are in schemas/hierarchyTree.ts: this entry
 * is read with the first screen (the registry), which loads no zod.
 */
import { HIERARCHY_TREE, defineResource } from '../core';

export default defineResource({
  name: 'hierarchy',
  label: HIERARCHY_TREE.title,
  // A dealer has no one below it.
  access: { list: ['admin', 'manager', 'reseller'], caps: ['admin', 'manager', 'reseller'] },
  menu: { admin: 'Accounts', manager: 'top', reseller: 'top' },
});
