/**
 * A member's limits (docs/domain.md#caps), edited by a user above it in the hierarchy tree's details
 * card: maximum live accounts, trials per day, credits it may give per day, each empty for no limit,
 * with what the member uses of them now. The same figures are the member's own on its dashboard.
 */
import { type HttpError, useCustom, useCustomMutation } from '@refinedev/core';
import { Button, Card, Descriptions, InputNumber, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { CAPS, CAP_LIMITS, type MemberCapsView, memberCapsBody } from '../../contract';
import { useNotify } from '../../components/feedback';

type CapKey = keyof MemberCapsView['caps'];
const FIELDS: ReadonlyArray<{ key: CapKey; label: string; max: number; used: (u: MemberCapsView['usage']) => number }> = [
  { key: 'max_accounts', label: CAPS.maxAccounts, max: CAP_LIMITS.maxAccounts, used: (u) => u.accounts },
  { key: 'trials_per_day', label: CAPS.trialsPerDay, max: CAP_LIMITS.trialsPerDay, used: (u) => u.trials_today },
  { key: 'credits_per_day', label: CAPS.creditsPerDay, max: CAP_LIMITS.creditsPerDay, used: (u) => u.credits_given_today },
];

const usageText = (cap: number | null, used: number) => (cap === null ? `${used} (${CAPS.noLimit})` : CAPS.usage(used, cap));

export function CapsEditor({ memberId, username }: { memberId: number; username: string }) {
  const notify = useNotify();
  const url = `hierarchy/caps/${memberId}`;
  const view = useCustom<{ data: MemberCapsView }, HttpError>({ url, method: 'get', errorNotification: false, queryOptions: { retry: false } });
  const current = view.result?.data?.data;
  const [values, setValues] = useState<Record<CapKey, number | null>>({ max_accounts: null, trials_per_day: null, credits_per_day: null });
  const [errors, setErrors] = useState<Partial<Record<CapKey, string>>>({});
  const { mutateAsync, mutation } = useCustomMutation<{ data: MemberCapsView }>();
  useEffect(() => {
    if (current) setValues(current.caps);
  }, [current]);

  const save = async () => {
    const checked = memberCapsBody.safeParse(values);
    if (!checked.success) {
      setErrors(Object.fromEntries(checked.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    try {
      await mutateAsync({ url, method: 'put', values: checked.data, successNotification: false, errorNotification: false });
      notify.success(CAPS.saved(username));
      await view.query.refetch();
    } catch (error) {
      notify.httpError(error, CAPS.saveFailed);
    }
  };

  return (
    <Card size="small" title={CAPS.title} data-testid="caps-editor" style={{ marginTop: 12 }} loading={view.query.isLoading}>
      <Typography.Paragraph type="secondary">{CAPS.help}</Typography.Paragraph>
      <Space direction="vertical" style={{ width: '100%' }}>
        {FIELDS.map((f) => (
          <div key={f.key}>
            <label htmlFor={`cap-${f.key}`}>{f.label}</label>
            <Space wrap>
              <InputNumber
                id={`cap-${f.key}`}
                min={0}
                max={f.max}
                precision={0}
                placeholder={CAPS.noLimit}
                value={values[f.key]}
                status={errors[f.key] ? 'error' : undefined}
                onChange={(v) => setValues((old) => ({ ...old, [f.key]: v ?? null }))}
              />
              {current && <Typography.Text type="secondary">{usageText(current.caps[f.key], f.used(current.usage))}</Typography.Text>}
            </Space>
            {errors[f.key] && <Typography.Text type="danger">{errors[f.key]}</Typography.Text>}
          </div>
        ))}
        <Button type="primary" onClick={() => void save()} loading={mutation.isPending}>
          Save
        </Button>
      </Space>
    </Card>
  );
}

/** The caller's own limits with its usage (its dashboard); nothing when none is set. */
export function MyCaps() {
  const view = useCustom<{ data: MemberCapsView }, HttpError>({ url: 'hierarchy/my-caps', method: 'get', errorNotification: false, queryOptions: { retry: false } });
  const mine = view.result?.data?.data;
  if (!mine || FIELDS.every((f) => mine.caps[f.key] === null)) return null;
  return (
    <Card size="small" title={CAPS.yours} data-testid="my-caps">
      <Descriptions
        column={1}
        size="small"
        items={FIELDS.filter((f) => mine.caps[f.key] !== null).map((f) => ({ key: f.key, label: f.label, children: usageText(mine.caps[f.key], f.used(mine.usage)) }))}
      />
    </Card>
  );
}
