import { MENUS, type Role, menuLabelsOf } from '../../src/contract';

/** The menu labels of each role in display order (src/contract/routes.ts), groups followed by their children. */
export const menuLabels = (role: Role): string[] => menuLabelsOf(MENUS[role]);
