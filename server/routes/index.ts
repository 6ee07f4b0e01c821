import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import authRoutes from './auth';
import dashboardRoutes from './dashboard';
import systemRoutes from './system';
import ticketCategoryRoutes from './ticketCategories';
import creditLevelRoutes from './creditLevels';
import creditOptionsSettingsRoutes from './creditOptionsSettings';
import globalDiscountRoutes from './globalDiscounts';
import serverRoutes from './servers';
import systemSettingsRoutes from './systemSettings';
import themeRoutes from './themes';
import userPromoRoutes from './userPromos';
import managerRoutes from './managers';
import resellerRoutes from './resellers';
import dealerRoutes from './dealers';
import creditOptionRoutes from './creditOptions';
import transactionRoutes from './transactions';
import accountRoutes from './accounts';
import macSearchRoutes from './macSearch';
import userSearchRoutes from './userSearch';
import globalDiscountLookupRoutes from './globalDiscountLookups';
import ticketRoutes from './tickets';
import announcementRoutes from './announcements';
import auditLogRoutes from './auditLogs';
import analyticsRoutes from './analytics';

/** Every API module, mounted under /api/v1. One file per module. */
export const apiModules: FastifyPluginAsyncZod[] = [systemRoutes, authRoutes, dashboardRoutes, ticketCategoryRoutes];
// Admin configuration (issue 5).
apiModules.push(serverRoutes, themeRoutes, userPromoRoutes, globalDiscountRoutes, systemSettingsRoutes, creditLevelRoutes, creditOptionsSettingsRoutes);
// Hierarchy and credits (issue 3).
apiModules.push(managerRoutes, resellerRoutes, dealerRoutes, creditOptionRoutes, transactionRoutes);
// End-user accounts, MAC check, user search, renewal price lookups (issue 4).
apiModules.push(accountRoutes, macSearchRoutes, userSearchRoutes, globalDiscountLookupRoutes);
// Tickets, announcements, audit logs, analytics (issue 9).
apiModules.push(ticketRoutes, announcementRoutes, auditLogRoutes, analyticsRoutes);
