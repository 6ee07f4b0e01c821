// Written by scripts/registry.mjs from the files beside it (npm run registry): do not edit.
import type { Migration } from 'kysely';
import * as m0001_initial from './0001_initial';
import * as m0004_accounts from './0004_accounts';
import * as m0005_allocation_recoveries from './0005_allocation_recoveries';
import * as m0006_ledger_guards from './0006_ledger_guards';
import * as m0008_communication from './0008_communication';
import * as m0009_server_drivers from './0009_server_drivers';
import * as m0010_scope_ranges from './0010_scope_ranges';
import * as m0011_allocation_index from './0011_allocation_index';
import * as m0012_list_indexes from './0012_list_indexes';
import * as m0013_kept_figures from './0013_kept_figures';
import * as m0014_ledger_statements from './0014_ledger_statements';
import * as m0015_unlogged_counters from './0015_unlogged_counters';
import * as m0016_middleware_journal from './0016_middleware_journal';
import * as m0018_trials from './0018_trials';
import * as m0019_allocation_bonuses from './0019_allocation_bonuses';
import * as m0020_server_timeouts from './0020_server_timeouts';
import * as m0022_ledger_operations from './0022_ledger_operations';
import * as m0023_user_preferences from './0023_user_preferences';
import * as m0024_two_factor from './0024_two_factor';
import * as m0025_member_caps from './0025_member_caps';
import * as m0026_notifications from './0026_notifications';
import * as m0027_api_tokens from './0027_api_tokens';
import * as m0028_sessions from './0028_sessions';
import * as m0029_bulk_jobs from './0029_bulk_jobs';

/** Every migration by its name, the file name; Kysely applies them in name order. */
export const migrations: Record<string, Migration> = {
  '0001_initial': m0001_initial,
  '0004_accounts': m0004_accounts,
  '0005_allocation_recoveries': m0005_allocation_recoveries,
  '0006_ledger_guards': m0006_ledger_guards,
  '0008_communication': m0008_communication,
  '0009_server_drivers': m0009_server_drivers,
  '0010_scope_ranges': m0010_scope_ranges,
  '0011_allocation_index': m0011_allocation_index,
  '0012_list_indexes': m0012_list_indexes,
  '0013_kept_figures': m0013_kept_figures,
  '0014_ledger_statements': m0014_ledger_statements,
  '0015_unlogged_counters': m0015_unlogged_counters,
  '0016_middleware_journal': m0016_middleware_journal,
  '0018_trials': m0018_trials,
  '0019_allocation_bonuses': m0019_allocation_bonuses,
  '0020_server_timeouts': m0020_server_timeouts,
  '0022_ledger_operations': m0022_ledger_operations,
  '0023_user_preferences': m0023_user_preferences,
  '0024_two_factor': m0024_two_factor,
  '0025_member_caps': m0025_member_caps,
  '0026_notifications': m0026_notifications,
  '0027_api_tokens': m0027_api_tokens,
  '0028_sessions': m0028_sessions,
  '0029_bulk_jobs': m0029_bulk_jobs,
};
