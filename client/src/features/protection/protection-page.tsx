import { Amount } from '@client/components/amount/amount'
import { AmountInput } from '@client/components/amount-input/amount-input'
import { DateTimeText } from '@client/components/date-time-text/date-time-text'
import { PageShell, ReadState } from '@client/components/page-shell/page-shell'
import { RequireLogin } from '@client/components/require-login/require-login'
import { paths } from '@client/config/paths'
import { formatDateMinute } from '@client/lib/date-time'
import { callApi } from '@client/lib/http'
import { session } from '@client/lib/session-store'
import { showToast } from '@client/lib/toast'
import { useBusy } from '@client/lib/use-busy'
import { amountField } from '@shared/contract/fields'
import {
  EXCLUSION_KIND_LABEL,
  EXCLUSION_KINDS,
  EXCLUSION_PERIODS,
  type ExclusionPeriod,
  exclusionPeriodSchema,
  LIMIT_KIND_LABEL,
  LIMIT_KINDS,
  LIMIT_PERIOD_LABEL,
  type LimitKind,
  type LimitPeriod,
  type LimitView,
  protectionLimits,
  REALITY_CHECK_INTERVALS,
  realityCheck,
  realityCheckIntervalSchema,
  setProtectionLimit,
  setRealityCheck,
  startExclusion,
} from '@shared/contract/protection'
import { listWallets } from '@shared/contract/wallet'
import Button from 'antd-mobile/es/components/button'
import Dialog from 'antd-mobile/es/components/dialog'
import Input from 'antd-mobile/es/components/input'
import List from 'antd-mobile/es/components/list'
import Selector from 'antd-mobile/es/components/selector'
import { useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { useProtectionRead } from './use-protection-read'
import './protection.css'

/** Limits, the reality check, time-out and self-exclusion: the player's own controls. */
export function ProtectionPage() {
  return (
    <PageShell title="游戏限制与自我保护" fallback={paths.responsible}>
      <RequireLogin>
        <Protection />
      </RequireLogin>
    </PageShell>
  )
}

function Protection() {
  const limits = useProtectionRead(protectionLimits)
  // The limits answer for the whole feature: a server without them has none of it.
  return (
    <ReadState availability={limits.availability} onRetry={() => limits.mutate()}>
      {limits.data ? (
        <div className="protection-page">
          {LIMIT_KINDS.map((kind) => (
            <LimitList
              key={kind}
              kind={kind}
              limits={limits.data?.list.filter((l) => l.kind === kind) ?? []}
              onChanged={() => limits.mutate()}
            />
          ))}
          <RealityCheckSettings />
          <ExclusionForm />
        </div>
      ) : null}
    </ReadState>
  )
}

const LIMIT_HELP: Record<LimitKind, string> = {
  deposit: '限制每个周期内的充值总额（含确认中的订单）。',
  loss: '限制每个周期内投注的净亏损（投注 − 派奖）。',
}

function LimitList({
  kind,
  limits,
  onChanged,
}: {
  kind: LimitKind
  limits: LimitView[]
  onChanged: () => void
}) {
  const [editing, setEditing] = useState<LimitPeriod | null>(null)
  return (
    <section className="protection-section" data-testid={`limits-${kind}`}>
      <List header={LIMIT_KIND_LABEL[kind]} mode="card">
        {limits.map((l) => (
          <List.Item
            key={l.period}
            onClick={() => setEditing(editing === l.period ? null : l.period)}
            extra={l.limit === null ? '未设置' : <Amount value={l.limit} />}
            description={<LimitDescription limit={l} />}
            arrowIcon
          >
            {LIMIT_PERIOD_LABEL[l.period]}
          </List.Item>
        ))}
      </List>
      {editing ? (
        <LimitEditor
          key={editing}
          kind={kind}
          period={editing}
          current={limits.find((l) => l.period === editing)}
          onDone={() => {
            setEditing(null)
            onChanged()
          }}
        />
      ) : null}
      <p className="protection-help">{LIMIT_HELP[kind]}降低限额立即生效；提高或取消限额需等待 24 小时。</p>
    </section>
  )
}

function LimitDescription({ limit }: { limit: LimitView }) {
  const usedLabel = limit.kind === 'deposit' ? '本期已充值' : '本期净亏损'
  return (
    <>
      <span>
        {usedLabel} <Amount value={limit.used} unit="" />
        {limit.remaining !== null ? (
          <>
            {' · 剩余 '}
            <Amount value={limit.remaining} unit="" />
          </>
        ) : null}{' '}
        · <DateTimeText ms={limit.resets_at} precision="minute" /> 重置
      </span>
      {limit.pending ? (
        <span className="protection-pending" data-testid="limit-pending">
          <br />
          {limit.pending.limit === null ? (
            '取消限额'
          ) : (
            <>
              调整为 <Amount value={limit.pending.limit} />
            </>
          )}
          将于 <DateTimeText ms={limit.pending.effective_at} precision="minute" /> 生效
        </span>
      ) : null}
    </>
  )
}

function LimitEditor({
  kind,
  period,
  current,
  onDone,
}: {
  kind: LimitKind
  period: LimitPeriod
  current: LimitView | undefined
  onDone: () => void
}) {
  const [amount, setAmount] = useState('')
  const [busy, run] = useBusy()
  const save = (value: string) => {
    if (value !== '' && !amountField.safeParse(value).success) {
      showToast('金额格式不正确')
      return
    }
    return run(async () => {
      const res = await callApi(setProtectionLimit, { body: { kind, period, amount: value } })
      const pending = res.limit.pending
      showToast(
        pending ? `已提交，将于 ${formatDateMinute(pending.effective_at)} 生效` : '限额已生效',
        'success',
      )
      onDone()
    })
  }
  return (
    <div className="protection-editor">
      <p>
        修改{LIMIT_PERIOD_LABEL[period]}
        {LIMIT_KIND_LABEL[kind]}
      </p>
      <AmountInput
        label={`${LIMIT_PERIOD_LABEL[period]}${LIMIT_KIND_LABEL[kind]}`}
        unit="USDT"
        placeholder="请输入金额"
        value={amount}
        onChange={setAmount}
      />
      <div className="protection-editor__actions">
        <Button
          color="primary"
          size="small"
          loading={busy}
          disabled={amount === ''}
          onClick={() => save(amount)}
        >
          保存
        </Button>
        {current?.limit !== null ? (
          <Button size="small" loading={busy} onClick={() => save('')}>
            取消限额
          </Button>
        ) : null}
        <Button size="small" fill="none" onClick={onDone}>
          关闭
        </Button>
      </div>
    </div>
  )
}

const INTERVAL_LABEL = (minutes: number) => (minutes === 0 ? '关闭' : `${minutes} 分钟`)

function RealityCheckSettings() {
  const check = useProtectionRead(realityCheck)
  const [busy, run] = useBusy()
  const save = (value: number) =>
    run(async () => {
      const parsed = realityCheckIntervalSchema.safeParse(value)
      if (!parsed.success) return
      await check.mutate(await callApi(setRealityCheck, { body: { interval_minutes: parsed.data } }), {
        revalidate: false,
      })
      showToast(parsed.data === 0 ? '已关闭游戏时间提醒' : `每 ${parsed.data} 分钟提醒一次`, 'success')
    })
  return (
    <section className="protection-section" data-testid="reality-check-settings">
      <List header="游戏时间提醒" mode="card">
        <List.Item description="每玩满所选时间，弹窗显示本次登录的游戏时长和输赢。">
          <ReadState availability={check.availability} onRetry={() => check.mutate()}>
            <Selector
              className="protection-selector"
              columns={4}
              disabled={busy}
              options={REALITY_CHECK_INTERVALS.map((m) => ({ label: INTERVAL_LABEL(m), value: m }))}
              value={check.data ? [check.data.interval_minutes] : []}
              onChange={(values) => {
                const [value] = values
                if (value !== undefined) void save(value)
              }}
            />
          </ReadState>
        </List.Item>
      </List>
    </section>
  )
}

/** What a withdrawal during the exclusion will still need set up: no address bound, no payment password. */
async function withdrawalSetupMissing(): Promise<string[]> {
  const missing: string[] = []
  const wallets = await callApi(listWallets, {}, { quiet: true }).catch(() => null)
  if (wallets && wallets.list.length === 0) missing.push('绑定提现地址')
  if (session.get().userInfo?.has_pay_password === false) missing.push('设置支付密码')
  return missing
}

function ExclusionForm() {
  const navigate = useNavigate()
  const [period, setPeriod] = useState<ExclusionPeriod | null>(null)
  const [password, setPassword] = useState('')
  const [busy, run] = useBusy()

  const submit = async () => {
    if (!period || password === '') return
    const choice = EXCLUSION_PERIODS[period]
    const missing = await withdrawalSetupMissing()
    const ok = await Dialog.confirm({
      title: `确认${EXCLUSION_KIND_LABEL[choice.kind]} ${choice.label}？`,
      content: (
        <div data-testid="exclusion-confirm">
          <p>立即生效，期间无法登录、无法投注，且不能提前解除。未结算的投注照常结算。</p>
          <p>余额仍可提现：在“负责任博彩”页的“暂停期提现”中，用手机号和登录密码验证身份，再输入支付密码。</p>
          {missing.length > 0 ? (
            <p data-testid="exclusion-missing">
              你还没有{missing.join('和')}
              ：期间提现前需先完成，届时要用发送到账号手机的短信验证码；也可以现在先在钱包里完成。
            </p>
          ) : null}
        </div>
      ),
      confirmText: '确认',
      cancelText: '再想想',
    })
    if (!ok) return
    await run(async () => {
      const res = await callApi(startExclusion, { body: { period, password } })
      await Dialog.alert({
        content: `已生效，至 ${formatDateMinute(res.ends_at)}（北京时间）结束。期间可在“负责任博彩”页使用暂停期提现。`,
        confirmText: '知道了',
      })
      // The server has ended every session of the account.
      session.signOut()
      navigate(paths.responsible, { replace: true })
    })
  }

  return (
    <section className="protection-section" data-testid="exclusion-form">
      {EXCLUSION_KINDS.map((kind) => (
        <List key={kind} header={kind === 'timeout' ? '暂停游戏（冷静期）' : '自我排除'} mode="card">
          <List.Item>
            <Selector
              className="protection-selector"
              columns={kind === 'timeout' ? 4 : 3}
              options={exclusionPeriodSchema.options
                .filter((p) => EXCLUSION_PERIODS[p].kind === kind)
                .map((p) => ({ label: EXCLUSION_PERIODS[p].label, value: p }))}
              value={period && EXCLUSION_PERIODS[period].kind === kind ? [period] : []}
              onChange={(values) => setPeriod(values[0] ?? null)}
            />
          </List.Item>
        </List>
      ))}
      <List mode="card">
        <List.Item>
          <Input
            type="password"
            autoComplete="current-password"
            placeholder="请输入登录密码以确认"
            value={password}
            onChange={setPassword}
          />
        </List.Item>
      </List>
      <div className="protection-editor__actions">
        <Button block color="danger" loading={busy} disabled={!period || password === ''} onClick={submit}>
          确认
          {period
            ? `${EXCLUSION_KIND_LABEL[EXCLUSION_PERIODS[period].kind]} ${EXCLUSION_PERIODS[period].label}`
            : ''}
        </Button>
      </div>
    </section>
  )
}
