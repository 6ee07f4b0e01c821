/**
 * MAC check: finds an account by MAC address within the caller's subtree; when the
 * address exists only outside it (another user's account, or a subscriber only a server's middleware
 * holds), says so without saying whose. Delete removes the caller's account and its subscriber.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNTS,
  type MacSearchResult,
  apiErrorBody,
  dataOf,
  formatMac,
  macDeleteBody,
  macDeleteResultEntity,
  macSearchQuery,
  macSearchResultEntity,
  messageDataOf,
} from '../../src/contract';
import { type AccountJoined, scopedAccounts, selectAccount, toAccount } from '../accounts/store';
import { recordAudit } from '../audit';
import { rateLimitMiddlewareWrites } from './creditOperation';
import { fieldError, notFound } from '../http/errors';
import { actorOf } from '../http/guard';
import { deleteAccountEverywhere } from '../provisioning/accounts';

const tags = ['mac-search'];

const macSearchRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;

  /**
   * Whether a subscriber of a server's middleware uses the MAC address (one the panel does not
   * know). The server asked for must answer; without one, a server that cannot be reached is passed.
   */
  const inMiddleware = async (mac: string, serverId: number | undefined): Promise<boolean> => {
    let servers = db.selectFrom('servers').select('id').where('driver', '!=', 'local');
    servers = serverId !== undefined ? servers.where('id', '=', serverId) : servers.where('status', '=', 'active');
    for (const { id } of await servers.execute()) {
      try {
        if ((await (await app.provisioners.forServer(id)).taken({ mac }, null)).mac) return true;
      } catch (error) {
        if (serverId !== undefined) throw error;
      }
    }
    return false;
  };

  app.get(
    '/mac-search',
    { config: { access: ['mac-search', 'list'] }, schema: { querystring: macSearchQuery, response: { 200: dataOf(macSearchResultEntity), '4xx': apiErrorBody }, tags } },
    async (request) => {
      const actor = actorOf(request);
      const { mac, server_id } = request.query;
      let mine = selectAccount(scopedAccounts(db, actor)).where('a.mac_address', '=', mac);
      if (server_id !== undefined) mine = mine.where('a.server_id', '=', server_id);
      const accounts = ((await mine.orderBy('a.id').execute()) as AccountJoined[]).map((row) => toAccount(row, actor.role));
      let elsewhere = false;
      if (accounts.length === 0) {
        let any = db.selectFrom('accounts').select('id').where('mac_address', '=', mac).where('deleted_at', 'is', null);
        if (server_id !== undefined) any = any.where('server_id', '=', server_id);
        elsewhere = Boolean(await any.executeTakeFirst()) || (await inMiddleware(mac, server_id));
      }
      const data: MacSearchResult = {
        mac: formatMac(mac),
        found: accounts.length > 0,
        registered_elsewhere: elsewhere,
        account: accounts[0] ?? null,
        accounts,
        message: accounts.length ? ACCOUNTS.macFound : elsewhere ? ACCOUNTS.macElsewhere : ACCOUNTS.macNotFound,
      };
      return { data };
    },
  );

  app.post(
    '/mac-search/delete',
    { config: { access: ['mac-search', 'delete'] }, schema: { body: macDeleteBody, response: { 200: messageDataOf(macDeleteResultEntity), '4xx': apiErrorBody }, tags } },
    async (request) => {
      const actor = actorOf(request);
      const { mac, server_id } = request.body;
      let q = selectAccount(scopedAccounts(db, actor)).where('a.mac_address', '=', mac);
      if (server_id !== undefined) q = q.where('a.server_id', '=', server_id);
      const rows = (await q.execute()) as AccountJoined[];
      if (rows.length === 0) throw notFound(ACCOUNTS.macNotFound);
      if (rows.length > 1) throw fieldError('server_id', ACCOUNTS.macSeveralServers);
      const [row] = rows;
      await rateLimitMiddlewareWrites(app, actor);
      await deleteAccountEverywhere(app.provisioners, db, row, actor.id);
      await recordAudit(db, request, {
        module: 'accounts',
        action: 'delete',
        entityId: row.id,
        targetUsername: row.login,
        description: `Deleted through the MAC check (${formatMac(mac)})`,
        oldValues: { login: row.login, mac_address: row.mac_address, server_id: row.server_id, expiry_date: row.expiry_date },
      });
      return { message: ACCOUNTS.deleted, data: { id: row.id, login: row.login, mac_address: formatMac(mac) } };
    },
  );
};

export default macSearchRoutes;
