/** Promote a dealer to reseller (POST /dealers/{id}/promote {manager_id}): admin picks the manager. */
import { useInvalidate } from '@refinedev/core';
import { Alert, Form, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { HIERARCHY, HIERARCHY_PANEL, type HierarchyUser } from '../../contract';
import { useNotify } from '../../components/feedback';
import { UserPicker, applyServerErrors } from '../../components/hierarchy';
import { useCurrentUser } from '../../providers/identity';
import { http } from '../../providers/http';

export function PromoteDialog({ dealer, onClose }: { dealer: HierarchyUser | null; onClose: () => void }) {
  const { user, role } = useCurrentUser();
  const admin = role === 'admin';
  const notify = useNotify();
  const invalidate = useInvalidate();
  const [form] = Form.useForm<{ manager_id?: number }>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (dealer) form.resetFields();
  }, [dealer, form]);

  const submit = async () => {
    if (!dealer) return;
    let manager_id: number | undefined;
    try {
      ({ manager_id } = await form.validateFields());
    } catch {
      return;
    }
    setSaving(true);
    try {
      await http.post(`dealers/${dealer.id}/promote`, { manager_id: admin ? manager_id : user?.id });
      notify.success(HIERARCHY.promoted);
      await Promise.all([
        invalidate({ resource: 'dealers', invalidates: ['list', 'detail'] }),
        invalidate({ resource: 'resellers', invalidates: ['list'] }),
      ]);
      onClose();
    } catch (error) {
      if (applyServerErrors(form, error, ['manager_id']).length === 0 || !admin) notify.httpError(error, HIERARCHY_PANEL.promoteFailed);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={dealer !== null} title={HIERARCHY_PANEL.promoteToReseller} okText="Promote" onOk={submit} onCancel={onClose} confirmLoading={saving} forceRender>
      {dealer && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message={`${dealer.name} (${dealer.username}) becomes a reseller${admin ? ' under the manager you choose' : ' under you'}. Its accounts and credits stay with it.`}
        />
      )}
      <Form form={form} name="promote-dealer" layout="vertical">
        {admin && (
          <Form.Item name="manager_id" label="Manager" rules={[{ required: true, message: HIERARCHY.managerRequired }]}>
            <UserPicker resource="managers" placeholder="Select a manager" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
