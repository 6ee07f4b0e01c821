/**
 * Hierarchy (/hierarchy): the caller and everyone below it as a tree, each member with its branch's
 * live accounts and those expiring in the chosen window, blocked members marked. Choosing a member
 * shows its figures and opens its accounts, its expiring accounts or its transactions. The window and
 * the chosen member are kept in the URL.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Descriptions, Empty, Input, Row, Select, Space, Spin, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { EXPIRING_WINDOWS, HIERARCHY_TREE, type HierarchyNode, nameWithUsername, plural } from '../../contract';
import { RoleBadge, StatusTag } from '../../components/display';
import { CapsEditor, branchAccountsUrl, memberTransactionsUrl, useHierarchyTree } from '../../features/hierarchy';

const DEFAULT_WINDOW = '7';
const windowOptions = EXPIRING_WINDOWS.map((days) => ({ value: days, label: HIERARCHY_TREE.window(days) }));

interface Branch {
  node: HierarchyNode;
  children: Branch[];
}

/** The flat list (a parent before its children) as nested branches from the caller down. */
function branchesOf(nodes: HierarchyNode[]): Branch | null {
  const byId = new Map(nodes.map((node) => [node.id, { node, children: [] as Branch[] }]));
  let root: Branch | null = null;
  for (const branch of byId.values()) {
    const parent = branch.node.parent_id === null ? undefined : byId.get(branch.node.parent_id);
    if (parent) parent.children.push(branch);
    else root ??= branch;
  }
  return root;
}

const matches = (node: HierarchyNode, term: string) => `${node.name} ${node.username}`.toLowerCase().includes(term);

/** The tree's nodes; with a search, only the matching members and the branches that lead to them. */
function treeData(branch: Branch, term: string, days: string): DataNode | null {
  const children = branch.children.map((c) => treeData(c, term, days)).filter((c): c is DataNode => c !== null);
  if (term && children.length === 0 && !matches(branch.node, term)) return null;
  const { node } = branch;
  return {
    key: node.id,
    children,
    title: (
      <Space size={[6, 0]} wrap>
        <span>{nameWithUsername(node.name, node.username)}</span>
        <RoleBadge role={node.role} />
        {node.blocked && <Tag color="red">{HIERARCHY_TREE.blocked}</Tag>}
        <Typography.Text type="secondary">
          {plural(node.accounts, 'account')}
          {node.expiring_accounts > 0 && `, ${node.expiring_accounts} ${HIERARCHY_TREE.expiring(days).toLowerCase()}`}
        </Typography.Text>
      </Space>
    ),
  };
}

function MemberDetails({ node, days }: { node: HierarchyNode; days: string }) {
  const navigate = useNavigate();
  return (
    <Card size="small" title={nameWithUsername(node.name, node.username)}>
      {node.blocked && (
        <Alert type="warning" showIcon message={HIERARCHY_TREE.blocked} description={HIERARCHY_TREE.blockedWhy(node.status)} style={{ marginBottom: 12 }} />
      )}
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'role', label: 'Role', children: <RoleBadge role={node.role} /> },
          { key: 'status', label: 'Status', children: <StatusTag status={node.status} /> },
          { key: 'balance', label: HIERARCHY_TREE.balance, children: plural(node.credits, 'credit') },
          { key: 'accounts', label: HIERARCHY_TREE.accounts, children: node.accounts },
          { key: 'active', label: HIERARCHY_TREE.active, children: node.active_accounts },
          { key: 'expiring', label: HIERARCHY_TREE.expiring(days), children: node.expiring_accounts },
        ]}
      />
      <Space wrap style={{ marginTop: 12 }}>
        <Button onClick={() => navigate(branchAccountsUrl(node.id))}>{HIERARCHY_TREE.openAccounts}</Button>
        <Button onClick={() => navigate(branchAccountsUrl(node.id, days))}>{HIERARCHY_TREE.openExpiring}</Button>
        <Button onClick={() => navigate(memberTransactionsUrl(node))}>{HIERARCHY_TREE.openTransactions}</Button>
      </Space>
      {/* The caller's own limits are its parent's to set: the editor is for the members below it. */}
      {node.parent_id !== null && <CapsEditor key={node.id} memberId={node.id} username={node.username} />}
    </Card>
  );
}

export function HierarchyPage() {
  const [params, setParams] = useSearchParams();
  const days = (EXPIRING_WINDOWS as readonly string[]).includes(params.get('expiring_days') ?? '') ? params.get('expiring_days')! : DEFAULT_WINDOW;
  const { tree, loading, error, refetch } = useHierarchyTree(days);
  const [search, setSearch] = useState('');
  const term = search.trim().toLowerCase();

  const root = useMemo(() => (tree ? branchesOf(tree.nodes) : null), [tree]);
  const data = useMemo(() => (root ? treeData(root, term, days) : null), [root, term, days]);
  const nodes = tree?.nodes ?? [];
  const selected = nodes.find((n) => String(n.id) === params.get('member')) ?? nodes[0];
  // The caller's branch and its first level open; a search opens every branch that leads to a match.
  const [expanded, setExpanded] = useState<Array<string | number> | null>(null);
  const openKeys = term ? nodes.map((n) => n.id) : (expanded ?? nodes.filter((n) => n.parent_id === null || n.parent_id === nodes[0]?.id).map((n) => n.id));

  const setParam = (name: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null) next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true },
    );

  return (
    <Card
      title={HIERARCHY_TREE.title}
      extra={
        <Space wrap>
          <Select
            aria-label={HIERARCHY_TREE.expiringWindow}
            prefix={`${HIERARCHY_TREE.expiringWindow}:`}
            value={days}
            options={windowOptions}
            onChange={(v) => setParam('expiring_days', v)}
          />
          <Button icon={<ReloadOutlined />} aria-label="Refresh" onClick={() => void refetch()} />
        </Space>
      }
    >
      {error && <Alert type="error" showIcon message={HIERARCHY_TREE.loadFailed} style={{ marginBottom: 12 }} />}
      {loading ? (
        <Spin style={{ display: 'block', padding: 48 }} />
      ) : nodes.length <= 1 && !error ? (
        <Empty description={HIERARCHY_TREE.empty} />
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={14}>
            <Input
              allowClear
              aria-label={HIERARCHY_TREE.search}
              placeholder={HIERARCHY_TREE.search}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              style={{ marginBottom: 12 }}
            />
            {data && (
              <Tree
                blockNode
                showLine
                treeData={[data]}
                expandedKeys={openKeys}
                onExpand={(keys) => setExpanded(keys as number[])}
                selectedKeys={selected ? [selected.id] : []}
                onSelect={(keys) => keys.length > 0 && setParam('member', String(keys[0]))}
              />
            )}
          </Col>
          <Col xs={24} lg={10}>
            {selected && <MemberDetails node={selected} days={days} />}
          </Col>
        </Row>
      )}
    </Card>
  );
}
