/**
 * CSV as panel and API write it: RFC 4180 quoting, CRLF line ends, UTF-8 with a BOM so spreadsheets
 * read the text right, and text a spreadsheet would run as a formula (=, +, -, @, tab or CR first)
 * kept as text by a leading apostrophe. Numbers are written as numbers, so -5 stays -5.
 */
export type CsvValue = string | number | boolean | null | undefined;

export interface CsvColumn<T> {
  title: string;
  value: (row: T) => CsvValue;
}

export const CSV_BOM = '\uFEFF';
export const CSV_MEDIA_TYPE = 'text/csv';

const FORMULA = /^[=+\-@\t\r]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, with its line end. */
export const csvLine = (values: readonly CsvValue[]): string => `${values.map(csvCell).join(',')}\r\n`;

export const csvHeader = <T>(columns: ReadonlyArray<CsvColumn<T>>): string => csvLine(columns.map((c) => c.title));

export const csvRows = <T>(rows: readonly T[], columns: ReadonlyArray<CsvColumn<T>>): string => rows.map((row) => csvLine(columns.map((c) => c.value(row)))).join('');

/** A whole table without the BOM (the download adds it). */
export const toCsv = <T>(rows: readonly T[], columns: ReadonlyArray<CsvColumn<T>>): string => csvHeader(columns) + csvRows(rows, columns);
