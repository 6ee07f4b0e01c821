/**
 * Resellers: under a manager. Admin names the manager (`manager`) and may move a reseller with its
 * whole subtree; a manager creates them under itself.
 */
import { HIERARCHY, resellerCreateBody, resellerUpdateBody } from '../../src/contract';
import { fieldError } from '../http/errors';
import { liveUser } from '../hierarchy/members';
import { userRoutes } from './userLevels';

export default userRoutes({
  role: 'reseller',
  resource: 'resellers',
  label: 'Reseller',
  childrenLabel: 'dealer',
  createBody: resellerCreateBody,
  updateBody: resellerUpdateBody,
  statuses: ['active', 'inactive', 'suspended'],
  creationMinimum: 'minimum_credits_reseller_creation',
  async parentForCreate(db, actor, body) {
    if (actor.role !== 'admin') {
      if (body.manager && body.manager !== actor.id) throw fieldError('manager', HIERARCHY.managerAdminOnly);
      return actor;
    }
    if (!body.manager) throw fieldError('manager', HIERARCHY.managerRequired);
    const manager = await liveUser(db, body.manager, 'manager');
    if (!manager) throw fieldError('manager', HIERARCHY.managerInvalid);
    return manager;
  },
  async parentForUpdate(db, actor, target, body) {
    if (!body.manager || body.manager === target.parent_id) return null;
    if (actor.role !== 'admin') throw fieldError('manager', HIERARCHY.managerAdminOnly);
    const manager = await liveUser(db, body.manager, 'manager');
    if (!manager) throw fieldError('manager', HIERARCHY.managerInvalid);
    return manager;
  },
  filters: { manager: { column: 'u.parent_id', type: 'int' }, manager_id: { column: 'u.parent_id', type: 'int' } },
});
