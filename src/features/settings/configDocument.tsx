/**
 * What the credit levels and credit options screens share: one configuration object read with GET
 * {path} and saved with PUT {path} (Refine's useCustom and useCustomMutation: the path has no record
 * id, so the form cannot save through its own update mutation), edited in a form checked by the
 * contract schema the API validates the PUT with. A failed load is toasted and shown with Retry; a
 * refused save puts the server's messages under the fields.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { type HttpError, useCustom, useCustomMutation } from '@refinedev/core';
import { Alert, Button, Spin } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import { GENERAL } from '../../contract';
import { errorNotification, useNotify } from '../../components/feedback';
import { setServerErrors, useSchemaForm } from '../../components/form';

export interface ConfigDocumentTexts {
  loadFailed: string;
  saveFailed: string;
  saved: string;
}

/**
 * `schema`: the contract schema of the configuration (the form's values are its input, the PUT body
 * its output); `toForm`: the form's values for a stored configuration, when the form holds some
 * fields differently (lists as text).
 */
export function useConfigDocument<T extends object>(
  path: string,
  schema: z.ZodType<T, any>,
  texts: ConfigDocumentTexts,
  toForm: (value: T) => Record<string, unknown> = (value) => ({ ...value }) as Record<string, unknown>,
) {
  const notify = useNotify();
  const form = useSchemaForm(schema);
  const { query, result } = useCustom<{ data: T }, HttpError>({
    url: path,
    method: 'get',
    queryOptions: { retry: false },
    errorNotification: errorNotification(texts.loadFailed, { server: false }),
  });
  const loaded = query.isSuccess ? (result.data?.data ?? null) : null;
  // What the server answered last (a save or a reset), over what was loaded.
  const [answered, setAnswered] = useState<T | null>(null);
  const value = answered ?? loaded;
  const loadError = query.isError && !query.isFetching ? (query.error?.message ?? texts.loadFailed) : null;

  const { reset } = form;
  useEffect(() => {
    if (loaded) reset(toForm(loaded));
    // toForm is a plain mapping; the form follows the loaded document only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, reset]);

  const load = useCallback(() => {
    setAnswered(null);
    void query.refetch();
  }, [query]);

  /** Shows a configuration the server answered (after a save or a reset). */
  const applied = (next: T) => {
    setAnswered(next);
    reset(toForm(next));
  };

  const { mutateAsync, mutation } = useCustomMutation<{ data: T }, HttpError>();
  const save = (body: T) =>
    mutateAsync({ url: path, method: 'put', values: body, successNotification: false, errorNotification: false })
      .then(({ data }) => {
        applied(data.data);
        notify.success(texts.saved);
      })
      .catch((error: HttpError) => {
        setServerErrors(form.setError, error, Object.keys(form.getValues()));
        notify.error(GENERAL.error, texts.saveFailed);
      });

  return { form, value, loadError, load, applied, save, saving: mutation.isPending };
}

/** Until the configuration has loaded: the load error with Retry, or a spinner. */
export function ConfigLoading({ title, error, onRetry }: { title: string; error: string | null; onRetry: () => void }) {
  if (!error) return <Spin style={{ display: 'block', margin: '64px auto' }} />;
  return (
    <Alert
      type="error"
      showIcon
      message={title}
      description={error}
      action={
        <Button icon={<ReloadOutlined />} onClick={onRetry}>
          Retry
        </Button>
      }
    />
  );
}
