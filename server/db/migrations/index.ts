import type { Migration } from 'kysely';
import * as initial from './0001_initial';
import * as accounts from './0004_accounts';
import * as allocationRecoveries from './0005_allocation_recoveries';
import * as ledgerGuards from './0006_ledger_guards';
import * as communication from './0008_communication';
import * as serverDrivers from './0009_server_drivers';
import * as scopeRanges from './0010_scope_ranges';
import * as allocationIndex from './0011_allocation_index';
import * as listIndexes from './0012_list_indexes';
import * as keptFigures from './0013_kept_figures';
import * as ledgerStatements from './0014_ledger_statements';
import * as unloggedCounters from './0015_unlogged_counters';
import * as middlewareJournal from './0016_middleware_journal';
import * as trials from './0018_trials';
import * as allocationBonuses from './0019_allocation_bonuses';
import * as serverTimeouts from './0020_server_timeouts';
import * as ledgerOperations from './0022_ledger_operations';
import * as userPreferences from './0023_user_preferences';

/** Every migration, in order. Add a file and list it here; names sort in apply order. */
export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0004_accounts': accounts,
  '0005_allocation_recoveries': allocationRecoveries,
  '0006_ledger_guards': ledgerGuards,
  '0008_communication': communication,
  '0009_server_drivers': serverDrivers,
  '0010_scope_ranges': scopeRanges,
  '0011_allocation_index': allocationIndex,
  '0012_list_indexes': listIndexes,
  '0013_kept_figures': keptFigures,
  '0014_ledger_statements': ledgerStatements,
  '0015_unlogged_counters': unloggedCounters,
  '0016_middleware_journal': middlewareJournal,
  '0018_trials': trials,
  '0019_allocation_bonuses': allocationBonuses,
  '0020_server_timeouts': serverTimeouts,
  '0022_ledger_operations': ledgerOperations,
  '0023_user_preferences': userPreferences,
};
