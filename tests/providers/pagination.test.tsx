/**
 * The shared table's pagination (docs/domain.md#lists): first, previous, up to 5 page buttons, next, last,
 * 'Page X of Y', and the page-size choices 10/15/25/50.
 */
import './dom';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Pagination, type PaginationProps, pageWindow } from '../../src/components/DataTable/Pagination';

describe('pageWindow', () => {
  it('shows up to 5 pages around the current one', () => {
    expect(pageWindow(5, 10)).toEqual([3, 4, 5, 6, 7]);
    expect(pageWindow(6, 20)).toEqual([4, 5, 6, 7, 8]);
  });

  it('sticks to the first pages at the start', () => {
    expect(pageWindow(1, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(2, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(3, 10)).toEqual([1, 2, 3, 4, 5]);
  });

  it('sticks to the last pages at the end', () => {
    expect(pageWindow(10, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(9, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(8, 10)).toEqual([6, 7, 8, 9, 10]);
  });

  it('shows every page when there are 5 or fewer', () => {
    expect(pageWindow(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(3, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(2, 2)).toEqual([1, 2]);
  });

  it('shows page 1 alone for one page and for no pages at all', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 0)).toEqual([1]);
  });

  it('stays inside the pages when the current page is out of range', () => {
    expect(pageWindow(12, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(0, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(4, 0)).toEqual([1]);
  });

  it('never shows more than 5 buttons, in ascending order without gaps', () => {
    for (let pages = 0; pages <= 12; pages++) {
      for (let current = 1; current <= Math.max(1, pages); current++) {
        const window = pageWindow(current, pages);
        expect(window.length).toBe(Math.min(5, Math.max(1, pages)));
        expect(window).toContain(current);
        window.forEach((page, i) => i > 0 && expect(page).toBe(window[i - 1] + 1));
      }
    }
  });
});

function renderPagination(props: Partial<PaginationProps> = {}) {
  const onChange = vi.fn();
  const onPageSizeChange = vi.fn();
  render(<Pagination current={1} pageCount={10} pageSize={10} total={100} onChange={onChange} onPageSizeChange={onPageSizeChange} {...props} />);
  const bar = screen.getByTestId('pagination');
  // Plain DOM lookups: getByRole's accessibility checks cost seconds per query on antd markup in jsdom.
  const buttons = () => Array.from(bar.querySelectorAll('button'));
  const button = (name: string) => {
    const found = buttons().find((b) => b.getAttribute('aria-label') === name || b.textContent === name);
    if (!found) throw new Error(`no button ${name}`);
    return found;
  };
  const pageButtons = () =>
    buttons()
      .map((b) => b.textContent ?? '')
      .filter((text) => /^\d+$/.test(text));
  return { bar, button, pageButtons, onChange, onPageSizeChange };
}

const isDisabled = (el: HTMLElement) => (el as HTMLButtonElement).disabled;

describe('Pagination', () => {
  it("shows the total, or 'More than N' when the API's total is a lower bound", () => {
    const exact = renderPagination({ total: 100 });
    expect(exact.bar.textContent).toContain('100 total');
    cleanup();
    const bound = renderPagination({ total: 10_000, totalExact: false, current: 1000, pageCount: 1001 });
    expect(bound.bar.textContent).toContain('More than 10,000');
    expect(bound.bar.textContent).not.toContain('total');
    expect(isDisabled(bound.button('Next page'))).toBe(false);
  });

  it("shows 'Page X of Y' and the page buttons around the current page", () => {
    const { bar, pageButtons } = renderPagination({ current: 4, pageCount: 9 });
    expect(bar.textContent).toContain('Page 4 of 9');
    expect(pageButtons()).toEqual(['2', '3', '4', '5', '6']);
  });

  it('disables first and previous on the first page, next and last stay enabled', () => {
    const { button } = renderPagination({ current: 1, pageCount: 3 });
    expect(isDisabled(button('First page'))).toBe(true);
    expect(isDisabled(button('Previous page'))).toBe(true);
    expect(isDisabled(button('Next page'))).toBe(false);
    expect(isDisabled(button('Last page'))).toBe(false);
  });

  it('disables next and last on the last page', () => {
    const { button } = renderPagination({ current: 3, pageCount: 3 });
    expect(isDisabled(button('First page'))).toBe(false);
    expect(isDisabled(button('Previous page'))).toBe(false);
    expect(isDisabled(button('Next page'))).toBe(true);
    expect(isDisabled(button('Last page'))).toBe(true);
  });

  it("disables everything for one page and reads 'Page 1 of 1' when there are no pages", () => {
    const { bar, button, pageButtons } = renderPagination({ current: 1, pageCount: 0, total: 0 });
    expect(bar.textContent).toContain('Page 1 of 1');
    expect(pageButtons()).toEqual(['1']);
    for (const name of ['First page', 'Previous page', 'Next page', 'Last page']) expect(isDisabled(button(name)), name).toBe(true);
  });

  it('moves to the first, previous, chosen, next and last page', () => {
    const { button, onChange } = renderPagination({ current: 5, pageCount: 10 });
    fireEvent.click(button('First page'));
    fireEvent.click(button('Previous page'));
    fireEvent.click(button('6'));
    fireEvent.click(button('Next page'));
    fireEvent.click(button('Last page'));
    expect(onChange.mock.calls.map((c) => c[0])).toEqual([1, 4, 6, 6, 10]);
  });

  it('marks the current page button as primary', () => {
    const { button } = renderPagination({ current: 2, pageCount: 4 });
    expect(button('2').className).toContain('ant-btn-primary');
    expect(button('3').className).not.toContain('ant-btn-primary');
  });

  it('offers page sizes 10, 15, 25 and 50 and reports the choice', async () => {
    const { bar, onPageSizeChange } = renderPagination({ pageSize: 10 });
    const select = bar.querySelector('input[aria-label="Rows per page"]')!;
    expect(select.getAttribute('role')).toBe('combobox');
    fireEvent.mouseDown(select);
    await waitFor(() => expect(document.querySelectorAll('.ant-select-item-option')).toHaveLength(4));
    const labels = Array.from(document.querySelectorAll('.ant-select-item-option')).map((o) => o.textContent);
    expect(labels).toEqual(['10', '15', '25', '50']);
    fireEvent.click(document.querySelector('.ant-select-item-option[title="25"]')!);
    expect(onPageSizeChange).toHaveBeenCalledWith(25, expect.anything());
  });

  it('shows the total', () => {
    const { bar } = renderPagination({ total: 137 });
    expect(bar.textContent).toContain('137 total');
  });
});
