import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import authRoutes from './auth';
import dashboardRoutes from './dashboard';
import systemRoutes from './system';
import ticketCategoryRoutes from './ticketCategories';

/** Every API module, mounted under /api/v1. One file per module. */
export const apiModules: FastifyPluginAsyncZod[] = [systemRoutes, authRoutes, dashboardRoutes, ticketCategoryRoutes];
