/** What the manager, reseller and dealer forms (pages and dialog) share when loading and saving a user. */
import { useOne } from '@refinedev/core';
import type { FormInstance } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { GENERAL, type HierarchyUser } from '../../contract';
import { useNotify } from '../feedback';
import { type FieldErrorItem, applyServerErrors } from './serverErrors';

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
  });
  useEffect(() => {
    if (enabled && query.isError) {
      notify.error(GENERAL.error, loadFailed);
      navigate(listPath);
    }
  }, [enabled, query.isError, notify, navigate, loadFailed, listPath]);
  return { user: result, loading: query.isLoading };
}

/**
 * Saving a user form: busy while sending; a refusal puts the server's messages under the fields
 * (`fields`, with `aliases` from API names) and in the summary box, and is toasted when no field explains it.
 */
export function useUserFormSave(form: FormInstance, fields: readonly string[], aliases?: Record<string, string>) {
  const notify = useNotify();
  const [summary, setSummary] = useState<FieldErrorItem[]>([]);
  const [saving, setSaving] = useState(false);
  /** `send` makes the call and reports the success; `failed` is the toast title of a refusal. */
  const save = async (send: () => Promise<void>, failed: string) => {
    setSummary([]);
    setSaving(true);
    try {
      await send();
    } catch (error) {
      const items = applyServerErrors(form, error, fields, aliases);
      setSummary(items);
      if (items.length === 0) notify.httpError(error, failed);
    } finally {
      setSaving(false);
    }
  };
  return { summary, clearSummary: () => setSummary([]), saving, save };
}
