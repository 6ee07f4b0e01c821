/**
 * The account screens' dialogs as components whose code loads when one first opens, or once the list
 * has shown its rows (`preloadAccountDialogs`): their forms, date pickers and schemas are more code
 * than the list itself, and none of it is needed to show the rows.
 */
import { lazyComponent } from '../../components/lazyComponent';

export const AccountFormDialog = lazyComponent(() => import('./AccountFormDialog'), 'AccountFormDialog');
export const AutoRenewDialog = lazyComponent(() => import('./dialogs'), 'AutoRenewDialog');
export const BulkMoveDialog = lazyComponent(() => import('./BulkMoveDialog'), 'BulkMoveDialog');
export const BulkFilterDialog = lazyComponent(() => import('./BulkFilterDialog'), 'BulkFilterDialog');
export const StbInfoDrawer = lazyComponent(() => import('./dialogs'), 'StbInfoDrawer');
export const TransactionsDrawer = lazyComponent(() => import('./dialogs'), 'TransactionsDrawer');
export const QuickRenewDialog = lazyComponent(() => import('./renewals/QuickRenewDialog'), 'QuickRenewDialog');

const all = [AccountFormDialog, AutoRenewDialog, BulkMoveDialog, BulkFilterDialog, StbInfoDrawer, TransactionsDrawer, QuickRenewDialog];

export const preloadAccountDialogs = () => Promise.all(all.map((dialog) => dialog.preload())).then(() => undefined);
