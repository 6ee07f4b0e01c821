/**
 * Tables to CSV as the user sees them (filtered): RFC 4180 quoting, a BOM so spreadsheets read UTF-8,
 * and text that a spreadsheet would run as a formula (=, +, -, @ first) kept as text.
 */
import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';

export interface CsvColumn<T> {
  title: string;
  value: (row: T) => string | number | boolean | null | undefined;
}

const FORMULA = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv<T>(rows: readonly T[], columns: ReadonlyArray<CsvColumn<T>>): string {
  const lines = [columns.map((c) => csvCell(c.title)).join(','), ...rows.map((row) => columns.map((c) => csvCell(c.value(row))).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

export function downloadCsv(filename: string, csv: string): void {
  const url = URL.createObjectURL(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
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
