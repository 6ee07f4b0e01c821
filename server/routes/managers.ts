/** Managers: admin only; they sit directly under the admin and work on one server. */
import { managerCreateBody, managerUpdateBody } from '../../src/contract';
import { userRoutes } from './userLevels';

export default userRoutes({
  role: 'manager',
  resource: 'managers',
  label: 'Manager',
  childrenLabel: 'reseller',
  createBody: managerCreateBody,
  updateBody: managerUpdateBody,
  statuses: ['active', 'inactive'],
  parentForCreate: async (_db, actor) => actor,
  filters: { server_id: { column: 'u.server_id', type: 'int' } },
});
