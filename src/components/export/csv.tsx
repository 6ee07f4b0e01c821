/** Tables the panel already holds, downloaded as CSV with the contract's cell rule (src/contract/csv.ts). */
import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { CSV_BOM, type CsvColumn, toCsv } from '../../contract';

export { type CsvColumn, csvCell, toCsv } from '../../contract';

export function downloadCsv(filename: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([CSV_BOM, csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ExportCsvButton<T>({
  rows,
  columns,
  filename,
  label = 'Export CSV',
}: {
  rows: readonly T[];
  columns: ReadonlyArray<CsvColumn<T>>;
  filename: string;
  label?: string;
}) {
  return (
    <Button
      icon={<DownloadOutlined />}
      size="small"
      disabled={rows.length === 0}
      onClick={() => downloadCsv(filename, toCsv(rows, columns))}
      aria-label={`${label}: ${filename}`}
    >
      {label}
    </Button>
  );
}
