/**
 * Create/Edit User: name, username (login), password (required on create,
 * empty keeps it on edit), STB MAC address in any notation, server, and on create the purchase:
 * months (with their price) or a trial (when trials are enabled). Admin may set the expiry directly.
 * The form checks with the contract's account bodies and saves through Refine's useForm (POST
 * /accounts, PUT /accounts/{id}); a create sends the opening's Idempotency-Key.
 */
import { type HttpError } from '@refinedev/core';
import { Alert, DatePicker, Input, Modal, Radio, Select } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { type Account, ACCOUNTS, ACCOUNT_SCREEN, CREDITS, DATETIME_FORMAT, ENTITY_FORM, GENERAL, TIME_FORMAT, USER_STATUSES, formatMac } from '../../contract';
import { useCurrentUser } from '../../providers/identity';
import { useIdempotencyKey, withIdempotencyKey } from '../../providers/idempotency';
import { errorNotification } from '../../components/feedback';
import { FormField, MonthsInput, SchemaForm, dateInput, setServerErrors, useSchemaForm } from '../../components/form';
import { useRenewalQuote } from './renewals';
import { PriceSummary, useAfterRenewal } from './renewals/shared';
import { ACCOUNT_FORM_ALIASES, ACCOUNT_FORM_FIELDS, type AccountFormValues, type Purchase, accountFormSchema } from './accountForm';
import { useAccountServers } from './useServers';
import { useTrialSettings } from './useTrialSettings';

export interface AccountFormDialogProps {
  /** 'create', an account to edit, or null when closed. */
  target: 'create' | Account | null;
  onClose: () => void;
}

const upper = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : v);

/** The messages of a refusal that belong to none of `shown` (the fields on screen): the summary box. */
function unplaced(error: HttpError | null | undefined, shown: readonly string[]): string[] {
  const rest: string[] = [];
  for (const [key, value] of Object.entries(error?.errors ?? {})) {
    if (shown.includes(ACCOUNT_FORM_ALIASES[key] ?? key)) continue;
    const messages = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];
    rest.push(...messages);
  }
  return rest;
}

export function AccountFormDialog({ target, onClose }: AccountFormDialogProps) {
  const afterSave = useAfterRenewal();
  const { role } = useCurrentUser();
  const admin = role === 'admin';
  const { options, branchServer, loading: serversLoading } = useAccountServers();
  const trials = useTrialSettings();
  const nonce = useIdempotencyKey(target);
  const editing = target !== null && target !== 'create' ? target : null;
  const mode = editing ? 'edit' : 'create';

  /** The fields on screen in this mode: a server error on any other shows in the summary box. */
  const shown = ACCOUNT_FORM_FIELDS.filter((f) =>
    f === 'expiry_date' ? admin : f === 'status' ? mode === 'edit' : f === 'purchase' || f === 'months' ? mode === 'create' : true,
  );
  const fallback = editing ? ACCOUNT_SCREEN.updateFailed : ACCOUNT_SCREEN.createFailed;

  const schema = useMemo(() => accountFormSchema({ mode, admin, expiry: editing?.expiry_date ?? null }), [mode, admin, editing]);
  const form = useSchemaForm(schema, {
    refineCoreProps: {
      resource: 'accounts',
      action: mode,
      id: editing?.id,
      // The dialog edits the row as the list shows it.
      queryOptions: { enabled: false },
      redirect: false,
      // A create may buy months, which moves credits: the opening's key makes a retry or a double
      // click a replay (the API reads it only when months are bought).
      meta: mode === 'create' ? withIdempotencyKey(`${nonce}:create`) : undefined,
      successNotification: () => ({ type: 'success', message: editing ? ACCOUNTS.updated : ACCOUNTS.created }),
      errorNotification: errorNotification(fallback, { fields: (error) => unplaced(error, shown).length === 0 }),
      // Refine puts the errors of the fields it sent under them; these also bring the purchase's
      // credits and trial refusals under the Subscription choice.
      onMutationError: (error) => setServerErrors(form.setError, error, shown, ACCOUNT_FORM_ALIASES),
    },
  });
  const { control, handleSubmit, reset, setError, getValues, setValue, refineCore } = form;
  const { mutation } = refineCore;

  const [purchase, months, serverId] = useWatch({ control, name: ['purchase', 'months', 'server_id'] }) as [
    Purchase | undefined,
    number | null | undefined,
    number | null | undefined,
  ];
  const servers = useMemo(() => [serverId ?? null], [serverId]);
  const price = useRenewalQuote(servers, months, target === 'create' && purchase === 'months');
  const pricing = mode === 'create' && purchase === 'months' && price.loading;

  // A non-admin's accounts live on its branch's server: offer only that one when it is known.
  const serverOptions = !admin && branchServer ? options.filter((o) => o.value === branchServer.id) : options;
  // Chosen once both the servers and the branch's own have answered (they load as the dialog opens).
  const defaultServer = serversLoading ? null : (branchServer?.id ?? options[0]?.value ?? null);

  useEffect(() => {
    if (!target) return;
    mutation.reset();
    if (editing) {
      reset({
        full_name: editing.full_name,
        login: editing.login,
        password: '',
        mac_address: formatMac(editing.mac_address),
        server_id: editing.server_id,
        status: editing.status,
        ...(admin ? { expiry_date: editing.expiry_date ?? null } : {}),
      });
    } else {
      reset({ full_name: '', login: '', password: '', mac_address: '', purchase: 'months', months: 1, server_id: defaultServer });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target]);

  // The server list may arrive after the dialog opened.
  useEffect(() => {
    if (target === 'create' && defaultServer !== null && !getValues('server_id')) setValue('server_id', defaultServer);
  }, [target, defaultServer, getValues, setValue]);

  /** `body` is the schema's output: the request body. */
  const submit = async (body: Record<string, unknown>) => {
    // Nothing is bought before the price of the months chosen is on screen.
    if (pricing) return;
    if (mode === 'create' && body.months !== undefined && price.balance !== null && price.total > price.balance) {
      setError('months', { type: 'balance', message: CREDITS.insufficientCredits(price.total, price.balance) });
      return;
    }
    await refineCore.onFinish(body as never);
    await afterSave();
    onClose();
  };

  const summary = unplaced(mutation.error, shown);

  return (
    <Modal
      open={target !== null}
      title={mode === 'create' ? ACCOUNT_SCREEN.createTitle : ACCOUNT_SCREEN.editTitle}
      okText={mode === 'create' ? 'Create' : 'Save'}
      onOk={() => handleSubmit(submit as never)().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={mutation.isPending}
      okButtonProps={{ disabled: pricing }}
      width={560}
    >
      {summary.length > 0 && (
        <Alert
          style={{ marginBottom: 16 }}
          type="error"
          showIcon
          message={ENTITY_FORM.fixErrors}
          description={
            <ul style={{ margin: 0, paddingLeft: 18 }}>
              {summary.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          }
        />
      )}
      <SchemaForm<AccountFormValues> name={`account-${mode}`} handleSubmit={handleSubmit} onSubmit={submit}>
        <FormField<AccountFormValues> control={control} name="full_name" label="Name" required>
          <Input autoComplete="off" />
        </FormField>
        <FormField<AccountFormValues> control={control} name="login" label="Username" required>
          <Input autoComplete="off" />
        </FormField>
        <FormField<AccountFormValues>
          control={control}
          name="password"
          label="Password"
          required={mode === 'create'}
          help={mode === 'edit' ? ENTITY_FORM.keepPassword : undefined}
        >
          <Input.Password autoComplete="new-password" />
        </FormField>
        <FormField<AccountFormValues> control={control} name="mac_address" label="STB MAC address" required fromInput={upper}>
          <Input placeholder={ACCOUNT_SCREEN.macSearchPlaceholder} autoComplete="off" />
        </FormField>
        <FormField<AccountFormValues> control={control} name="server_id" label="Server" required>
          <Select options={serverOptions} placeholder={GENERAL.serverPlaceholder} />
        </FormField>
        {mode === 'create' && (
          <>
            <FormField<AccountFormValues> control={control} name="purchase" label="Subscription">
              <Radio.Group
                options={[
                  { label: 'Months', value: 'months' },
                  ...(trials.enabled ? [{ label: trials.days ? `Trial (${trials.days} days)` : 'Trial', value: 'trial' }] : []),
                  { label: 'None', value: 'none' },
                ]}
              />
            </FormField>
            {purchase === 'months' && (
              <>
                <FormField<AccountFormValues> control={control} name="months" label="Months">
                  <MonthsInput />
                </FormField>
                <div style={{ marginBottom: 16 }}>
                  <PriceSummary price={price} />
                </div>
              </>
            )}
          </>
        )}
        {admin && (
          <FormField<AccountFormValues> control={control} name="expiry_date" label="Expiry date" {...dateInput}>
            <DatePicker showTime={{ format: TIME_FORMAT }} format={DATETIME_FORMAT} style={{ width: '100%' }} disabledDate={(d) => d.isBefore(dayjs().startOf('day'))} />
          </FormField>
        )}
        {mode === 'edit' && (
          <FormField<AccountFormValues> control={control} name="status" label="Status">
            <Select options={USER_STATUSES.map((s) => ({ label: s.charAt(0).toUpperCase() + s.slice(1), value: s }))} />
          </FormField>
        )}
        {/* Enter in a field submits. */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </SchemaForm>
    </Modal>
  );
}
