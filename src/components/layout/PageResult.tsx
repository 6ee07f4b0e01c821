/**
 * A page that is a result (Page Not Found, Access Denied, Maintenance): antd's Result, whose title is
 * the page's h1 instead of a plain line beside a hidden heading that says the same.
 */
import type { ResultProps } from 'antd';
import type { ReactNode } from 'react';
import { LazyResult } from '../feedback/LazyResult';
import { usePageHeading } from './PageHeading';
import './layout.css';

export function PageResult({ title, ...props }: Omit<ResultProps, 'title'> & { title: ReactNode }) {
  const Heading = usePageHeading(true) ? 'h1' : 'h2';
  return <LazyResult {...props} title={<Heading className="page-result-title">{title}</Heading>} />;
}
