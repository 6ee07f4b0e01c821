/** Tables the panel already holds, downloaded as CSV with the contract's cell rule (src/contract/csv.ts). */
import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { CSV_BOM, type CsvColumn, toCsv } from '../../contract';
import { saveFile } from '../../providers/exportCsv';

export { type CsvColumn, csvCell, toCsv } from '../../contract';

export function downloadCsv(filename: string, csv: string): void {
  saveFile(new Blob([CSV_BOM, csv], { type: 'text/csv;charset=utf-8' }), filename);
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
