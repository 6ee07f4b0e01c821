// Written by scripts/registry.mjs from the files beside it (npm run registry): do not edit.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import accountMoves from './accountMoves';
import accounts from './accounts';
import analytics from './analytics';
import announcements from './announcements';
import apiTokens from './apiTokens';
import auditLogs from './auditLogs';
import auth from './auth';
import bulkAccounts from './bulkAccounts';
import creditLevels from './creditLevels';
import creditOptions from './creditOptions';
import creditOptionsSettings from './creditOptionsSettings';
import dashboard from './dashboard';
import dealers from './dealers';
import globalDiscountLookups from './globalDiscountLookups';
import globalDiscounts from './globalDiscounts';
import hierarchy from './hierarchy';
import macSearch from './macSearch';
import managers from './managers';
import notifications from './notifications';
import resellers from './resellers';
import servers from './servers';
import sessions from './sessions';
import statements from './statements';
import system from './system';
import systemSettings from './systemSettings';
import themes from './themes';
import ticketCategories from './ticketCategories';
import tickets from './tickets';
import transactions from './transactions';
import userPromos from './userPromos';
import userSearch from './userSearch';

/** Every API module (a file here with a default export), mounted under /api/v1 in file-name order. */
export const apiModules: FastifyPluginAsyncZod[] = [
  accountMoves,
  accounts,
  analytics,
  announcements,
  apiTokens,
  auditLogs,
  auth,
  bulkAccounts,
  creditLevels,
  creditOptions,
  creditOptionsSettings,
  dashboard,
  dealers,
  globalDiscountLookups,
  globalDiscounts,
  hierarchy,
  macSearch,
  managers,
  notifications,
  resellers,
  servers,
  sessions,
  statements,
  system,
  systemSettings,
  themes,
  ticketCategories,
  tickets,
  transactions,
  userPromos,
  userSearch,
];
