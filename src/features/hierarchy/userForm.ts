/**
 * What the manager, reseller and dealer forms (pages and dialog) share: the form schema derived from
 * the contract's create/update body, the record shown in an edit form, and the refusal toast.
 */
import { type HttpError, type OpenNotificationParams, useOne } from '@refinedev/core';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { GENERAL, type HierarchyUser, type UserStatus } from '../../contract';
import { errorToast, useNotify } from '../../components/feedback';
import { firstFieldMessage } from '../credits/creditErrors';
import { requiredField } from '../../components/form/requiredField';

/** The values of a user form: the status select stands for the API's status and is_active. */
export interface UserFormValues {
  name: string;
  username: string;
  password?: string;
  status?: UserStatus;
  credits?: number | null;
  server_id?: number | null;
  manager?: number | null;
  reseller?: number | null;
}

export interface UserFormSchemaOptions {
  /** Fields the form requires, with the message shown when empty. */
  required?: Record<string, string>;
  /** Fields of the body the form does not send (a locked username, a parent the caller does not pick). */
  omit?: readonly string[];
}

/**
 * The form schema of a user create or update: the contract's body with the form's required fields;
 * its output is the request body: the status also as is_active, and no password when it is kept.
 */
export function userFormSchema(body: z.ZodObject, { required = {}, omit = [] }: UserFormSchemaOptions = {}) {
  const extended = body
    .omit(Object.fromEntries(omit.filter((k) => k in body.shape).map((k) => [k, true])) as never)
    .extend(Object.fromEntries(Object.entries(required).map(([k, message]) => [k, requiredField(message, body.shape[k] as z.ZodType)])));
  return extended.transform(({ password, ...values }: Record<string, unknown>) => ({
    ...values,
    ...(password ? { password } : {}),
    ...(values.status ? { is_active: values.status === 'active' } : {}),
  })) as unknown as z.ZodType<Record<string, unknown>, UserFormValues>;
}

/** The form values of a loaded user (`statuses`: what its level's select offers). */
export function userFormValues(user: HierarchyUser, statuses: readonly UserStatus[]): UserFormValues {
  const status: UserStatus = statuses.includes(user.status) ? user.status : user.is_active ? 'active' : 'inactive';
  return { name: user.name, username: user.username, password: '', status };
}

/** The first message of each field of a refusal (shown under the fields and in the summary box). */
export const fieldMessages = (error: HttpError | null | undefined) =>
  Object.keys(error?.errors ?? {}).flatMap((field) => {
    const message = firstFieldMessage(error?.errors, field);
    return message ? [{ field, message }] : [];
  });

/** Refine's error notification of a user save: none when the fields explain it, else the failure toast. */
export const saveFailedNotification =
  (fallback: string) =>
  (error?: HttpError): OpenNotificationParams | false =>
    fieldMessages(error).length > 0 ? false : errorToast(error, fallback);

/** The user an edit page shows, by id; when it cannot be loaded, a toast and back to the list. */
export function useEditedUser(entity: 'managers' | 'dealers', id: string | undefined, options: { enabled?: boolean; loadFailed: string; listPath: string }) {
  const { enabled = true, loadFailed, listPath } = options;
  const notify = useNotify();
  const navigate = useNavigate();
  const { result, query } = useOne<HierarchyUser>({
    resource: entity,
    id: id ?? '',
    queryOptions: { enabled: enabled && Boolean(id), retry: false },
    errorNotification: false,
    // A query of its own: the edit form's (disabled) record query would otherwise share its failure
    // and toast Refine's default 'Error (status code: ...)' beside ours.
    meta: { editedUser: true },
  });
  useEffect(() => {
    if (enabled && query.isError) {
      notify.error(GENERAL.error, loadFailed);
      navigate(listPath);
    }
  }, [enabled, query.isError, notify, navigate, loadFailed, listPath]);
  return { user: result, loading: query.isLoading };
}
