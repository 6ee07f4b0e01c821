/**
 * What Add Credits and Recover Credits share: the lookup of the amounts when the dialog opens, the
 * move sent once per click through the form's Refine mutation with the opening's Idempotency-Key, the
 * toasts and field error of a refusal, the user shown at the top, and the amount field checked with
 * the contract's rule for `credits` (plus the dialog's own check) before anything is sent.
 */
import { type HttpError, useCustom } from '@refinedev/core';
import { Descriptions } from 'antd';
import { type ReactNode, useEffect, useRef } from 'react';
import type { Control, UseFormHandleSubmit } from 'react-hook-form';
import { z } from 'zod';
import { type CreditAmountRules, type CreditMoveResult, type Role, creditAmount, nameWithUsername, plural } from '../../contract';
import { useIdempotencyKey } from '../../providers/idempotency';
import { errorToast, useNotify } from '../../components/feedback';
import { FormField, SchemaForm, setServerErrors, useSchemaForm } from '../../components/form';
import { AmountSelect, type AmountSelectProps, rangeHint } from './AmountSelect';
import { type CreditEntity, useAfterCreditMove } from './creditCall';
import { creditErrorToast } from './creditErrors';

/** The user credits are added to or recovered from. */
export interface CreditTarget {
  id: number;
  name: string;
  username: string;
  role: Role;
  credits: number;
  bonus_credits?: number;
}

export interface CreditDialogProps {
  entity: CreditEntity;
  /** The user; null keeps the dialog closed. */
  target: CreditTarget | null;
  onClose: () => void;
}

/**
 * The form of a credit dialog: the amount exactly as typed or picked, by the contract's rules (those
 * the lookup states, then the API's rule for `credits`) and the dialog's own check on a valid amount.
 */
export function amountSchema(rules: CreditAmountRules, check?: (amount: number) => string | undefined) {
  return z.object({ credits: creditAmount(rules) }).superRefine(({ credits }, ctx) => {
    const message = check?.(credits);
    if (message) ctx.addIssue({ code: 'custom', message, path: ['credits'] });
  });
}

export interface CreditDialogOptions<T> extends CreditDialogProps {
  /** The amounts' lookup (a GET through the data provider), read again at each opening; its answer is { data: T }. */
  lookup: (target: CreditTarget) => { url: string; query?: Record<string, unknown> };
  /** Toasted (as 'Error') when the lookup fails; without it the dialog handles the failure itself. */
  loadFailedMessage?: string;
  /** The title of the failure toast ('Failed to Add Credits', 'Failed to Recover Credits'). */
  failedTitle: string;
  /** Other server error fields shown under the amount when the answer has no `credits` error. */
  errorAliases?: Record<string, 'credits'>;
  /** The rules of an amount given what the lookup answered (or null before it answers, or when it failed). */
  rules: (data: T | null) => CreditAmountRules;
  /** A rule of the dialog on a valid amount, given what the lookup answered: the message, or undefined when it passes. */
  check?: (amount: number, data: T | null) => string | undefined;
}

/** One move: the body sent (besides the amount's own checks) and the success toast from the API's answer. */
export interface CreditMove {
  body: { action: 'renew' | 'recover'; credits: number; bonus_credits?: number };
  done: (result: CreditMoveResult | undefined) => { title: string; description: string };
}

export function useCreditDialog<T>({ entity, target, onClose, lookup, loadFailedMessage, failedTitle, errorAliases = {}, rules, check }: CreditDialogOptions<T>) {
  const notify = useNotify();
  const afterMove = useAfterCreditMove();
  const open = target !== null;
  // One key per opening: sent with the move (a retry reuses it), and naming the opening's lookup.
  const key = useIdempotencyKey(target ? `${entity}/${target.id}` : null);
  const busy = useRef(false);

  const { url, query: lookupQuery } = target ? lookup(target) : { url: '', query: undefined };
  const { query } = useCustom<{ data: T }>({
    url,
    method: 'get',
    config: { query: lookupQuery },
    // The 'Failed to load recovery options' toast; Add Credits falls back to its own list silently.
    errorNotification: loadFailedMessage ? errorToast(null, loadFailedMessage) : false,
    successNotification: false,
    queryOptions: { queryKey: ['credit-dialog', url, lookupQuery, key], enabled: open, retry: false, gcTime: 0 },
  });
  const data = query.data?.data.data ?? null;
  const loading = open && query.isFetching;
  const loadFailed = open && query.isError;

  const amountRules = rules(data);
  const schema = amountSchema(amountRules, check ? (amount) => check(amount, data) : undefined);
  const form = useSchemaForm(schema, {
    mode: 'onChange',
    defaultValues: { credits: undefined },
    refineCoreProps: {
      resource: entity,
      action: 'create',
      meta: { path: target ? `${entity}/${target.id}/credits` : undefined, headers: { 'Idempotency-Key': key } },
      mutationMode: 'pessimistic',
      redirect: false,
      invalidates: [],
      successNotification: false,
      errorNotification: false,
    },
  });
  const { reset, setError, handleSubmit, watch, refineCore } = form;
  const selected = watch('credits') as number | undefined;

  useEffect(() => {
    if (!open) return;
    busy.current = false;
    reset({ credits: undefined });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  /**
   * Sends a checked amount (a second click meanwhile is ignored), then toasts and refreshes, or shows
   * the refusal: the dialog's toast, and the server's message under the amount (Refine puts a `credits`
   * error there itself; the aliases bring the API's other fields to it).
   */
  const send =
    (move: (amount: number, target: CreditTarget) => CreditMove | null) =>
    async ({ credits }: { credits?: unknown }) => {
      if (!target || busy.current) return;
      const planned = move(Number(credits), target);
      if (!planned) return;
      busy.current = true;
      try {
        const result = await refineCore.onFinish(planned.body);
        const done = planned.done((result as { data?: CreditMoveResult } | undefined)?.data);
        notify.success(done.title, done.description);
        await afterMove(entity);
        onClose();
      } catch (error) {
        const toast = creditErrorToast(error, failedTitle);
        notify.error(toast.title, toast.description);
        const errors = (error as HttpError | undefined)?.errors ?? {};
        if (!('credits' in errors)) {
          const aliased = Object.fromEntries(Object.entries(errors).filter(([field]) => field in errorAliases));
          setServerErrors(setError, { errors: aliased }, ['credits'], errorAliases);
        }
        busy.current = false;
      }
    };

  /** The OK button: the amount is checked first (the messages show under it and nothing is sent). */
  const submit = (move: (amount: number, target: CreditTarget) => CreditMove | null) => handleSubmit(send(move))().catch(() => undefined);

  return {
    control: form.control,
    handleSubmit,
    selected,
    send,
    data,
    loadFailed,
    loading,
    submit,
    rules: amountRules,
    modalProps: { open, onCancel: onClose, confirmLoading: refineCore.mutation.isPending },
  };
}

/** The user at the top of a credit dialog, its balance, and the dialog's own lines (Descriptions items). */
export function CreditTargetSummary({
  target,
  label,
  balance,
  children,
}: {
  target: CreditTarget | null;
  label: string;
  balance: number | undefined;
  children?: ReactNode;
}) {
  if (!target) return null;
  return (
    <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
      <Descriptions.Item label={label}>{nameWithUsername(target.name, target.username)}</Descriptions.Item>
      <Descriptions.Item label="Current balance">{balance === undefined ? '' : plural(balance, 'credit')}</Descriptions.Item>
      {children}
    </Descriptions>
  );
}

export interface AmountFormProps extends Omit<AmountSelectProps, 'value' | 'onChange'> {
  control: Control<any>;
  handleSubmit: UseFormHandleSubmit<any, any>;
  /** The form's name (unique on the page: it prefixes the field ids). */
  name: string;
  /** Sends the checked values (Enter in the field). */
  onSubmit: (values: { credits?: unknown }) => unknown;
  /** The rules of a typed amount, said under the field (with allowCustom). */
  rules?: CreditAmountRules;
}

/** The amount field; its rules are the dialog's schema. */
export function AmountForm({ control, handleSubmit, name, onSubmit, rules, ...select }: AmountFormProps) {
  return (
    <SchemaForm name={name} handleSubmit={handleSubmit} onSubmit={onSubmit}>
      <FormField control={control} name="credits" label="Amount" extra={select.allowCustom && rules ? rangeHint(rules) : undefined}>
        <AmountSelect {...select} />
      </FormField>
    </SchemaForm>
  );
}
