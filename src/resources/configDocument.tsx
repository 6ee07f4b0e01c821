/**
 * What the credit levels and credit options screens share: one configuration object read with GET
 * {path} and saved with PUT {path}; a failed load is toasted and shown with Retry, a refused save puts
 * the server's messages under the fields.
 */
import { ReloadOutlined } from '@ant-design/icons';
import type { HttpError } from '@refinedev/core';
import { Alert, Button, type FormInstance, Spin } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { GENERAL } from '../contract';
import { useNotify } from '../components/feedback';
import { applyServerErrors } from '../components/form/legacyServerErrors';
import { http } from '../providers/http';

export interface ConfigDocumentTexts {
  loadFailed: string;
  saveFailed: string;
  saved: string;
}

/** `toForm`: the form's values for a configuration (when the form holds some fields differently). */
export function useConfigDocument<T extends object>(path: string, texts: ConfigDocumentTexts, form: FormInstance, toForm: (value: T) => object = (value) => value) {
  const notify = useNotify();
  const [value, setValue] = useState<T | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const load = useCallback(() => {
    setLoadError(null);
    http
      .get<{ data: T }>(path)
      .then(({ data }) => setValue(data.data))
      .catch((error: HttpError) => {
        setLoadError(error?.message ?? texts.loadFailed);
        notify.error(GENERAL.error, texts.loadFailed);
      });
  }, [notify, path, texts.loadFailed]);
  useEffect(load, [load]);

  /** Shows a configuration the server answered (after a save or a reset). */
  const applied = (next: T) => {
    setValue(next);
    form.setFieldsValue(toForm(next));
  };

  const save = (body: T) => {
    setSaving(true);
    http
      .put<{ data: T }>(path, body)
      .then(({ data }) => {
        applied(data.data);
        notify.success(texts.saved);
      })
      .catch((error: HttpError) => {
        applyServerErrors(form, error, Object.keys(error?.errors ?? {}));
        notify.error(GENERAL.error, texts.saveFailed);
      })
      .finally(() => setSaving(false));
  };

  return { value, loadError, load, applied, save, saving };
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
