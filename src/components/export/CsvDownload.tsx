/**
 * The Export button of a list (and the statement's CSV download): fetches the API's CSV stream for
 * the current view, shows the bytes and rows received, and can be cancelled; the file is saved when
 * complete.
 */
import { CloseOutlined, DownloadOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { DATA_TABLE } from '../../contract';
import { type ExportProgress, fetchCsv, saveFile } from '../../providers/exportCsv';
import { useNotify } from '../feedback/notify';

export interface CsvDownloadProps {
  /** The export's path under the API prefix and its query, read when the download starts (the current view). */
  request: () => { path: string; query?: Record<string, string | number> };
  label?: string;
  size?: 'small' | 'middle';
}

export function CsvDownload({ request, label = DATA_TABLE.export, size = 'middle' }: CsvDownloadProps) {
  const notify = useNotify();
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const running = useRef<AbortController | null>(null);
  // Leaving the page stops a download in progress.
  useEffect(() => () => running.current?.abort(), []);

  const start = async () => {
    const controller = new AbortController();
    running.current = controller;
    setProgress({ bytes: 0, rows: 0 });
    try {
      const { blob, filename, rows } = await fetchCsv({ ...request(), signal: controller.signal, onProgress: setProgress });
      saveFile(blob, filename);
      notify.success(DATA_TABLE.exportDone(rows));
    } catch (error) {
      if (!controller.signal.aborted) notify.httpError(error, DATA_TABLE.exportFailed);
    } finally {
      if (running.current === controller) running.current = null;
      setProgress(null);
    }
  };

  if (progress === null) {
    return (
      <Button icon={<DownloadOutlined />} size={size} onClick={() => void start()} className="no-print">
        {label}
      </Button>
    );
  }
  return (
    <Space size={4} className="no-print">
      <Button size={size} loading>
        {label}
      </Button>
      <Typography.Text type="secondary" role="status" aria-live="polite" data-testid="export-progress">
        {DATA_TABLE.exportProgress(progress.bytes, progress.rows)}
      </Typography.Text>
      <Button size={size} icon={<CloseOutlined />} aria-label={DATA_TABLE.exportCancel} title={DATA_TABLE.exportCancel} onClick={() => running.current?.abort()} />
    </Space>
  );
}
