/**
 * Create/Edit dialog of a reseller or a dealer (spec 2 and 5): Auto-generate, status, the parent
 * picker for the roles that choose one (admin picks the manager of a reseller, sent as `manager`;
 * admin and manager pick the reseller of a dealer, sent as `reseller`), initial credits chosen from a
 * list on create, and server field errors under the fields and in the summary box.
 */
import { ThunderboltOutlined } from '@ant-design/icons';
import { useCreate, useInvalidate, useInvalidateAuthStore, useUpdate } from '@refinedev/core';
import { Button, Form, Modal } from 'antd';
import { useEffect, useState } from 'react';
import {
  CREDITS,
  CREDIT_RANGE_HINT,
  ENTITY_FORM,
  HIERARCHY,
  type CreditOption,
  type CreditOptionsResponse,
  FALLBACK_CREDIT_OPTIONS,
  type HierarchyUser,
  type Role,
  USER_STATUSES,
  type UserStatus,
  fallbackCreditOptions,
  isRole,
} from '../../contract';
import { useCurrentUser } from '../../providers/identity';
import { http } from '../../providers/http';
import { AmountSelect } from '../credits/AmountSelect';
import { useNotify } from '../feedback';
import { ErrorSummary } from './ErrorSummary';
import { randomIdentity } from './generate';
import { useUserFormSave } from './userForm';
import { USER_FORM_FIELDS, UserFields, statusPayload } from './UserFields';
import { UserPicker } from './UserPicker';

export interface UserLevelConfig {
  entity: 'resellers' | 'dealers';
  /** 'Reseller', 'Dealer'. */
  label: string;
  passwordRequired: string;
  /** The parent picker: which list, the payload key, who sees it, its required message. */
  parent: { resource: 'managers' | 'resellers'; field: 'manager' | 'reseller'; label: string; pickers: readonly Role[]; required: string; onEdit: boolean };
  messages: { created: string; updated: string; createFailed: string; updateFailed: string };
}

interface Values {
  name: string;
  username: string;
  password?: string;
  status?: UserStatus;
  parent?: number;
  credits?: number;
}

const plain = (v: number): CreditOption => ({ value: v, display_text: `${v} credits`, bonus_credits: 0, total_credits: v });
const NONE: CreditOption = { value: 0, display_text: 'No initial credits', bonus_credits: 0, total_credits: 0 };

/** The initial-credit amounts a creator may give a new user of `role` (the API's allocation lookup). */
function useInitialCreditOptions(open: boolean, role: 'reseller' | 'dealer', admin: boolean, serverId: number | null | undefined, ownPaid: number) {
  const [state, setState] = useState<{ options: CreditOption[]; min: number; max: number; loading: boolean }>({
    options: [],
    min: CREDIT_RANGE_HINT.min,
    max: CREDIT_RANGE_HINT.max,
    loading: false,
  });
  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    setState((s) => ({ ...s, loading: true }));
    http
      .get<{ data: CreditOptionsResponse }>('credit-options/allocation', { params: { role, ...(serverId ? { server_id: serverId } : {}) } })
      .then(({ data }) => ({ options: data.data.options, min: data.data.min_credits, max: data.data.max_credits }))
      .catch(() => {
        const max = admin ? FALLBACK_CREDIT_OPTIONS.adminMax : ownPaid;
        return { options: fallbackCreditOptions(max).map(plain), min: FALLBACK_CREDIT_OPTIONS.start, max };
      })
      .then((r) => !cancelled && setState({ ...r, loading: false }));
    return () => {
      cancelled = true;
    };
  }, [open, role, admin, serverId, ownPaid]);
  return state;
}

export interface UserFormDialogProps {
  config: UserLevelConfig;
  mode: 'create' | 'edit';
  /** The record to edit (edit mode). */
  record?: HierarchyUser | null;
  open: boolean;
  onClose: () => void;
}

export function UserFormDialog({ config, mode, record, open, onClose }: UserFormDialogProps) {
  const { user, role } = useCurrentUser();
  const admin = role === 'admin';
  const notify = useNotify();
  const invalidate = useInvalidate();
  const invalidateAuthStore = useInvalidateAuthStore();
  const [form] = Form.useForm<Values>();
  const [parentServer, setParentServer] = useState<number | null>(null);
  const { mutateAsync: create } = useCreate();
  const { mutateAsync: update } = useUpdate();

  const picksParent = (isRole(role) ? config.parent.pickers.includes(role) : false) && (mode === 'create' || config.parent.onEdit);
  const ownPaid = user && user.credits !== null ? user.credits - (user.bonus_credits ?? 0) : 0;
  const credits = useInitialCreditOptions(open && mode === 'create', config.entity === 'resellers' ? 'reseller' : 'dealer', admin, parentServer, ownPaid);
  const { summary, clearSummary, saving, save } = useUserFormSave(form, [...USER_FORM_FIELDS, 'parent', 'credits'], { [config.parent.field]: 'parent' });
  // Only the new user's direct parent (or admin, who mints) can give it initial credits.
  const chosenParent = Form.useWatch('parent', form);
  const givesInitialCredits = admin || !picksParent || chosenParent === undefined || chosenParent === user?.id;
  useEffect(() => {
    if (!givesInitialCredits) form.setFieldValue('credits', 0);
  }, [givesInitialCredits, form]);

  useEffect(() => {
    if (!open) return;
    clearSummary();
    setParentServer(null);
    form.resetFields();
    if (mode === 'edit' && record) {
      form.setFieldsValue({ name: record.name, username: record.username, status: record.status, parent: record.parent_id ?? undefined });
    }
  }, [open, mode, record, form]);

  const onFinish = (values: Values) => {
    const parent = picksParent && values.parent ? { [config.parent.field]: values.parent } : {};
    return save(async () => {
      if (mode === 'create') {
        await create({
          resource: config.entity,
          values: {
            name: values.name,
            username: values.username,
            password: values.password,
            credits: Math.trunc(Number(values.credits ?? 0)),
            ...statusPayload(values.status ?? 'active'),
            ...parent,
          },
          successNotification: false,
          errorNotification: false,
        });
        notify.success(config.messages.created);
        if (Number(values.credits) > 0) await Promise.all([invalidateAuthStore(), invalidate({ resource: 'transactions', invalidates: ['list'] })]);
      } else {
        await update({
          resource: config.entity,
          id: record!.id,
          values: {
            name: values.name,
            username: values.username,
            ...(values.password ? { password: values.password } : {}),
            ...statusPayload(values.status),
            ...parent,
          },
          successNotification: false,
          errorNotification: false,
        });
        notify.success(config.messages.updated);
      }
      onClose();
    }, mode === 'create' ? config.messages.createFailed : config.messages.updateFailed);
  };

  const generate = () => {
    form.setFieldsValue(randomIdentity());
    form.setFields(USER_FORM_FIELDS.map((name) => ({ name, errors: [] })));
  };

  return (
    <Modal
      open={open}
      title={`${mode === 'create' ? 'Create' : 'Edit'} ${config.label}`}
      okText={mode === 'create' ? `Create ${config.label}` : 'Save Changes'}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      width={600}
      forceRender
    >
      <ErrorSummary items={summary} />
      <Form form={form} name={`${config.entity}-${mode}`} layout="vertical" onFinish={onFinish} initialValues={{ status: 'active' }}>
        {mode === 'create' && (
          <div style={{ display: 'flex', justifyContent: 'flex-end', marginBottom: 8 }}>
            <Button icon={<ThunderboltOutlined />} onClick={generate}>
              Auto-generate
            </Button>
          </div>
        )}
        <UserFields mode={mode} nameRequired={ENTITY_FORM.nameRequired} passwordRequired={config.passwordRequired} statuses={USER_STATUSES} />
        {picksParent && (
          <Form.Item name="parent" label={config.parent.label} rules={mode === 'create' ? [{ required: true, message: config.parent.required }] : []}>
            <UserPicker
              resource={config.parent.resource}
              placeholder={`Select a ${config.parent.label.toLowerCase()}`}
              onChange={(_, picked) => setParentServer(picked?.server_id ?? null)}
            />
          </Form.Item>
        )}
        {mode === 'create' && (
          <Form.Item
            name="credits"
            label="Initial credits"
            extra={givesInitialCredits ? `Range: ${credits.min}-${credits.max} credits` : HIERARCHY.initialCreditsDirectChildOnly}
            rules={[{ required: true, message: CREDITS.selectAmount }]}
          >
            <AmountSelect options={givesInitialCredits ? [NONE, ...credits.options] : [NONE]} allowCustom={admin} loading={credits.loading} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
