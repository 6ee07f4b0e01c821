/**
 * Create/Edit dialog of a reseller or a dealer (docs/domain.md#forms-and-dialogs): Auto-generate, status, the parent
 * picker for the roles that choose one (admin picks the manager of a reseller, sent as `manager`;
 * admin and manager pick the reseller of a dealer, sent as `reseller`), initial credits chosen from a
 * list on create (a credit move: sent with the Idempotency-Key of the dialog's opening), and server
 * field errors under the fields and in the summary box.
 */
import { ThunderboltOutlined } from '@ant-design/icons';
import { useCustom, useInvalidate } from '@refinedev/core';
import { Alert, Button, Modal } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import type { z } from 'zod';
import {
  CREDITS,
  CREDIT_RANGE_HINT,
  type CreditAmountRules,
  HIERARCHY,
  HIERARCHY_PANEL,
  type CreditOption,
  type CreditOptionsResponse,
  FALLBACK_CREDIT_OPTIONS,
  type HierarchyUser,
  type Role,
  USER_STATUSES,
  fallbackCreditOptions,
  isRole,
  withCreditAmountRules,
  nameWithUsername,
  plural,
} from '../../contract';
import { useCurrentUser, useRefreshIdentity } from '../../providers/identity';
import { useIdempotencyKey, withIdempotencyKey } from '../../providers/idempotency';
import { AmountSelect } from '../credits/AmountSelect';
import { FormField, SchemaForm, useSchemaForm } from '../../components/form';
import { ErrorSummary } from './ErrorSummary';
import { randomIdentity } from './generate';
import { type UserFormValues, saveFailedNotification, userFormSchema, userFormValues } from './userForm';
import { UserFields } from './UserFields';
import { UserPicker } from './UserPicker';

export interface UserLevelConfig {
  entity: 'resellers' | 'dealers';
  /** 'Reseller', 'Dealer'. */
  label: string;
  /** The contract's bodies of the level's create and update calls: the API validates with the same. */
  schemas: { create: z.ZodObject; update: z.ZodObject };
  /** The parent picker: which list, the payload key, who sees it, its required message. */
  parent: { resource: 'managers' | 'resellers'; field: 'manager' | 'reseller'; label: string; pickers: readonly Role[]; required: string; onEdit: boolean };
  messages: { created: string; updated: string; createFailed: string; updateFailed: string };
}

const plain = (v: number): CreditOption => ({ value: v, display_text: plural(v, 'credit'), bonus_credits: 0, total_credits: v });
const NONE: CreditOption = { value: 0, display_text: 'No initial credits', bonus_credits: 0, total_credits: 0 };

/** The initial-credit amounts a creator may give a new user of `role` (the API's allocation lookup, or the fallback list). */
function useInitialCreditOptions(open: boolean, role: 'reseller' | 'dealer', admin: boolean, serverId: number | null | undefined, ownPaid: number) {
  const { query, result } = useCustom<{ data: CreditOptionsResponse }>({
    url: 'credit-options/allocation',
    method: 'get',
    config: { query: { role, ...(serverId ? { server_id: serverId } : {}) } },
    queryOptions: { enabled: open, retry: false },
    errorNotification: false,
  });
  const loaded = result.data?.data;
  if (query.isError) {
    const max = admin ? FALLBACK_CREDIT_OPTIONS.adminMax : ownPaid;
    return { options: fallbackCreditOptions(max).map(plain), min: FALLBACK_CREDIT_OPTIONS.start, max, step: 1, loading: query.isFetching };
  }
  return {
    options: loaded?.options ?? [],
    min: loaded?.min_credits ?? CREDIT_RANGE_HINT.min,
    max: loaded?.max_credits ?? CREDIT_RANGE_HINT.max,
    step: loaded?.step ?? 1,
    loading: query.isFetching,
  };
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
  const invalidate = useInvalidate();
  const refreshIdentity = useRefreshIdentity();
  const [parentServer, setParentServer] = useState<number | null>(null);
  /** The parent picked in this opening: a move's preview names it. */
  const [pickedParent, setPickedParent] = useState<HierarchyUser | undefined>();
  /** A new object per opening: a new Idempotency-Key, kept for every retry of that opening. */
  const [opening, setOpening] = useState<object | null>(null);
  const idempotencyKey = useIdempotencyKey(opening);
  const parentField = config.parent.field;
  const picksParent = (isRole(role) ? config.parent.pickers.includes(role) : false) && (mode === 'create' || config.parent.onEdit);

  const ownPaid = user && user.credits !== null ? user.credits - (user.bonus_credits ?? 0) : 0;
  const credits = useInitialCreditOptions(open && mode === 'create', config.entity === 'resellers' ? 'reseller' : 'dealer', admin, parentServer, ownPaid);
  /** A typed amount is sent as typed or refused by these rules under the field (0: none); admin mints any. */
  const creditRules: CreditAmountRules = admin
    ? { min: 1 }
    : { min: credits.min, max: credits.max, step: credits.step, balance: ownPaid, offered: credits.options.map((o) => o.value) };
  const rulesKey = JSON.stringify(creditRules);
  const schema = useMemo(() => {
    const body = mode === 'create' ? config.schemas.create : config.schemas.update;
    const withRules = mode === 'create' ? body.extend({ credits: withCreditAmountRules(body.shape.credits as z.ZodType, creditRules, { zeroIsNone: true }) }) : body;
    return userFormSchema(withRules, {
      required: mode === 'create' ? { credits: CREDITS.selectAmount, ...(picksParent ? { [parentField]: config.parent.required } : {}) } : {},
      omit: picksParent ? [] : [parentField],
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mode, config, picksParent, parentField, rulesKey]);
  const { control, handleSubmit, reset, setValue, clearErrors, refineCore } = useSchemaForm(schema, {
    defaultValues: { status: 'active' },
    refineCoreProps: {
      resource: config.entity,
      action: mode,
      id: record?.id,
      // The dialog edits the row as the list shows it.
      queryOptions: { enabled: false },
      redirect: false,
      meta: mode === 'create' ? withIdempotencyKey(idempotencyKey) : undefined,
      successNotification: () => ({ type: 'success', message: mode === 'create' ? config.messages.created : config.messages.updated }),
      errorNotification: saveFailedNotification(mode === 'create' ? config.messages.createFailed : config.messages.updateFailed),
    },
  });
  const { mutation } = refineCore;

  // Only the new user's direct parent (or admin, who mints) can give it initial credits.
  const chosenParent = useWatch({ control, name: parentField });
  const givesInitialCredits = admin || !picksParent || chosenParent == null || chosenParent === user?.id;
  useEffect(() => {
    if (!givesInitialCredits) setValue('credits', 0);
  }, [givesInitialCredits, setValue]);

  useEffect(() => {
    if (!open) return;
    setOpening({});
    setParentServer(null);
    setPickedParent(undefined);
    mutation.reset();
    reset(mode === 'edit' && record ? { ...userFormValues(record, USER_STATUSES), [parentField]: record.parent_id ?? undefined } : { status: 'active' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, mode, record]);

  /** A second click while the save is under way sends nothing (the key would replay it anyway). */
  const busy = useRef(false);
  /** `payload` is the schema's output: the request body. */
  const submit = async (payload: Record<string, unknown>) => {
    if (busy.current) return;
    busy.current = true;
    try {
      await refineCore.onFinish(payload as never);
    } finally {
      busy.current = false;
    }
    if (mode === 'create' && Number(payload.credits) > 0) {
      await Promise.all([refreshIdentity(), invalidate({ resource: 'transactions', invalidates: ['list'] })]);
    }
    onClose();
  };

  const generate = () => {
    const identity = randomIdentity();
    for (const name of ['name', 'username', 'password'] as const) setValue(name, identity[name], { shouldDirty: true });
    clearErrors(['name', 'username', 'password', 'status']);
  };

  return (
    <Modal
      open={open}
      title={`${mode === 'create' ? 'Create' : 'Edit'} ${config.label}`}
      okText={mode === 'create' ? `Create ${config.label}` : 'Save Changes'}
      onOk={() => handleSubmit(submit as never)().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={mutation.isPending}
      width={600}
    >
      <ErrorSummary error={mutation.error} />
      <SchemaForm name={`${config.entity}-${mode}`} handleSubmit={handleSubmit} onSubmit={submit}>
        {mode === 'create' && (
          <div style={{ display: 'flex', justifyContent: 'flex-end', marginBottom: 8 }}>
            <Button icon={<ThunderboltOutlined />} onClick={generate}>
              Auto-generate
            </Button>
          </div>
        )}
        <UserFields control={control} mode={mode} statuses={USER_STATUSES} />
        {picksParent && (
          <FormField<UserFormValues> control={control} name={parentField} label={config.parent.label} required={mode === 'create'}>
            <UserPicker
              resource={config.parent.resource}
              placeholder={`Select a ${config.parent.label.toLowerCase()}`}
              onPick={(picked) => {
                setParentServer(picked?.server_id ?? null);
                setPickedParent(picked);
              }}
            />
          </FormField>
        )}
        {mode === 'edit' && record && pickedParent && chosenParent === pickedParent.id && pickedParent.id !== record.parent_id && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            message={HIERARCHY_PANEL.movePreview(
              nameWithUsername(record.name, record.username),
              nameWithUsername(pickedParent.name, pickedParent.username),
              config.entity === 'resellers' ? record.total_children : null,
              record.total_accounts,
            )}
          />
        )}
        {mode === 'create' && (
          <FormField<UserFormValues>
            control={control}
            name="credits"
            label="Initial credits"
            required
            extra={givesInitialCredits ? `Range: ${credits.min}-${credits.max} credits` : HIERARCHY.initialCreditsDirectChildOnly}
          >
            <AmountSelect options={givesInitialCredits ? [NONE, ...credits.options] : [NONE]} allowCustom={givesInitialCredits} loading={credits.loading} />
          </FormField>
        )}
        {/* Enter in a field submits. */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </SchemaForm>
    </Modal>
  );
}
