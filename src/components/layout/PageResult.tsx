/**
 * A page that is a result (Page Not Found, Access Denied, Maintenance): antd's Result, whose title is
 * the page's h1 instead of a plain line beside a hidden heading that says the same.
 */
import { Result, type ResultProps } from 'antd';
import type { ReactNode } from 'react';
import { usePageHeading } from './PageHeading';
import './layout.css';

export function PageResult({ title, ...props }: Omit<ResultProps, 'title'> & { title: ReactNode }) {
  const Heading = usePageHeading(true) ? 'h1' : 'h2';
  return <Result {...props} title={<Heading className="page-result-title">{title}</Heading>} />;
}
