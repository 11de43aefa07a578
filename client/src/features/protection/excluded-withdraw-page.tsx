import { Amount } from '@client/components/amount/amount'
import { AmountInput } from '@client/components/amount-input/amount-input'
import { ConfirmItem } from '@client/components/confirm-item/confirm-item'
import { PageShell } from '@client/components/page-shell/page-shell'
import { SmsCodeItem } from '@client/components/sms-code-button/sms-code-button'
import { SubmitForm } from '@client/components/submit-form/submit-form'
import { paths } from '@client/config/paths'
import { formatDateMinute } from '@client/lib/date-time'
import { requiredRule, schemaRule } from '@client/lib/form-rules'
import { callApi } from '@client/lib/http'
import { SubmissionKey } from '@client/lib/submission-key'
import { showToast } from '@client/lib/toast'
import { useBusy } from '@client/lib/use-busy'
import type { DataOf } from '@shared/contract/endpoint'
import { amountField, passwordField, payPasswordField, phoneField } from '@shared/contract/fields'
import {
  EXCLUSION_KIND_LABEL,
  excludedAccount,
  excludedSetup,
  excludedSms,
  excludedWithdraw,
} from '@shared/contract/protection'
import { tronAddressField, walletLabelField } from '@shared/contract/wallet'
import Form from 'antd-mobile/es/components/form'
import Input from 'antd-mobile/es/components/input'
import Result from 'antd-mobile/es/components/result'
import { useState } from 'react'
import { Link } from 'react-router-dom'
import './protection.css'

type Account = DataOf<typeof excludedAccount>
interface Proof {
  phone: string
  password: string
}
interface SetupValues {
  address?: string
  label?: string
  pay_password?: string
  pay_password_again?: string
  sms_code: string
}
interface WithdrawValues {
  amount: string
  pay_password: string
}

/**
 * A withdrawal while a time-out or self-exclusion refuses login (docs/player-protection.md): the
 * account's phone and login password prove who asks and open the account's balance, fee and
 * addresses; a player without an address or a payment password binds one and sets one here with
 * an SMS code to the account's phone; then the payment password guards the money. Each attempt
 * of the withdrawal has its own submission key (docs/client.md#submission-keys).
 */
export function ExcludedWithdrawPage() {
  const [proof, setProof] = useState<Proof | null>(null)
  const [account, setAccount] = useState<Account | null>(null)
  const [done, setDone] = useState<DataOf<typeof excludedWithdraw> | null>(null)

  return (
    <PageShell title="暂停期提现" fallback={paths.responsible}>
      {done ? (
        <Result
          status="success"
          title="提现已提交"
          description={
            <>
              订单 <span className="num">{done.order_no}</span>，金额 <Amount value={done.amount} />
              ，手续费 <Amount value={done.fee} />
              ，余额 <Amount value={done.balance} />
            </>
          }
        />
      ) : proof && account ? (
        <>
          <AccountSummary account={account} />
          {account.wallets.list.length === 0 || !account.withdraw.has_pay_password ? (
            <SetupForm proof={proof} account={account} onDone={setAccount} />
          ) : (
            <WithdrawForm proof={proof} account={account} onDone={setDone} />
          )}
        </>
      ) : (
        <ProofForm
          onDone={(p, a) => {
            setProof(p)
            setAccount(a)
          }}
        />
      )}
      <p className="protection-help protection-page">
        <Link to={paths.responsible}>返回负责任博彩</Link>
      </p>
    </PageShell>
  )
}

function ProofForm({ onDone }: { onDone: (proof: Proof, account: Account) => void }) {
  const [busy, run] = useBusy()
  const submit = (values: Proof) =>
    run(async () => onDone(values, await callApi(excludedAccount, { body: values })))
  return (
    <>
      <p className="protection-help protection-page">
        暂停游戏或自我排除期间无法登录。你仍可在此用手机号和登录密码查看余额并提现；还没有提现地址或支付密码的，可在这里用短信验证码绑定和设置。
      </p>
      <SubmitForm onFinish={submit} submitText="下一步" busy={busy}>
        <Form.Item name="phone" label="手机号" rules={[requiredRule('请输入手机号'), schemaRule(phoneField)]}>
          <Input type="tel" autoComplete="username" placeholder="注册手机号" clearable />
        </Form.Item>
        <Form.Item
          name="password"
          label="登录密码"
          rules={[requiredRule('请输入登录密码'), schemaRule(passwordField)]}
        >
          <Input type="password" autoComplete="current-password" placeholder="登录密码" clearable />
        </Form.Item>
      </SubmitForm>
    </>
  )
}

function AccountSummary({ account }: { account: Account }) {
  const w = account.withdraw
  const target = account.wallets.list.find((a) => a.is_default) ?? account.wallets.list[0]
  return (
    <section className="protection-text" aria-label="账户余额" data-testid="excluded-summary">
      <div>
        {EXCLUSION_KIND_LABEL[account.kind]}至 {formatDateMinute(account.ends_at)}（北京时间）
      </div>
      <div>
        余额 <b data-testid="excluded-balance">{w.balance}</b> USDT
      </div>
      <div>
        手续费 <b data-testid="excluded-fee">{w.fee}</b> USDT / 笔（另从余额扣除）
      </div>
      <div>
        单笔 {w.min_amount}–{w.max_amount} USDT，今日最多可提 {w.max_withdrawable} USDT
      </div>
      {target ? (
        <div>
          提现至 {target.label}（{target.address}）
        </div>
      ) : null}
    </section>
  )
}

function SetupForm({
  proof,
  account,
  onDone,
}: {
  proof: Proof
  account: Account
  onDone: (account: Account) => void
}) {
  const [busy, run] = useBusy()
  const needAddress = account.wallets.list.length === 0
  const needPay = !account.withdraw.has_pay_password

  const sendCode = async () => {
    const data = await callApi(excludedSms, { body: proof })
    showToast('验证码已发送', 'success')
    return data.resend_in
  }

  const submit = (values: SetupValues) =>
    run(async () => {
      const next = await callApi(excludedSetup, {
        body: {
          ...proof,
          sms_code: values.sms_code,
          ...(needAddress && values.address ? { address: values.address.trim() } : {}),
          ...(needAddress && values.label?.trim() ? { label: values.label.trim() } : {}),
          ...(needPay && values.pay_password ? { pay_password: values.pay_password } : {}),
        },
      })
      showToast(needAddress ? '提现地址已绑定' : '支付密码已设置', 'success')
      onDone(next)
    })

  return (
    <>
      <p className="protection-help protection-page">
        {needAddress && needPay
          ? '提现前需要绑定提现地址并设置支付密码。'
          : needAddress
            ? '提现前需要绑定提现地址。'
            : '提现前需要设置支付密码。'}
        验证码将发送至 {account.phone}。
      </p>
      <SubmitForm onFinish={submit} submitText={needAddress ? '绑定并继续' : '设置并继续'} busy={busy}>
        {needAddress ? (
          <>
            <Form.Item
              name="address"
              label="提现地址"
              rules={[requiredRule('请输入提现地址'), schemaRule(tronAddressField)]}
            >
              <Input placeholder="TRC20 地址，以 T 开头" clearable />
            </Form.Item>
            <Form.Item name="label" label="地址备注" rules={[schemaRule(walletLabelField)]}>
              <Input placeholder="选填，如：我的钱包" clearable />
            </Form.Item>
          </>
        ) : null}
        {needPay ? (
          <>
            <Form.Item
              name="pay_password"
              label="支付密码"
              rules={[requiredRule('请设置支付密码'), schemaRule(payPasswordField)]}
            >
              <Input type="password" inputMode="numeric" maxLength={6} placeholder="设置6位数字" clearable />
            </Form.Item>
            <ConfirmItem
              name="pay_password_again"
              of="pay_password"
              label="确认支付密码"
              placeholder="再次输入"
              required="请再次输入支付密码"
              digits
            />
          </>
        ) : null}
        <SmsCodeItem name="sms_code" placeholder="短信验证码" onSend={sendCode} />
      </SubmitForm>
    </>
  )
}

function WithdrawForm({
  proof,
  account,
  onDone,
}: {
  proof: Proof
  account: Account
  onDone: (done: DataOf<typeof excludedWithdraw>) => void
}) {
  const [busy, run] = useBusy()
  const [key] = useState(() => new SubmissionKey())
  const target = account.wallets.list.find((a) => a.is_default) ?? account.wallets.list[0]

  const submit = (values: WithdrawValues) =>
    run(async () => {
      const body = {
        ...proof,
        ...(target ? { wallet_id: target.id } : {}),
        amount: values.amount.trim(),
        pay_password: values.pay_password,
      }
      onDone(
        await key.send(body, (idempotencyKey) => callApi(excludedWithdraw, { body }, { idempotencyKey })),
      )
    })

  return (
    <SubmitForm onFinish={submit} submitText="提交提现" busy={busy}>
      <Form.Item name="amount" label="金额" rules={[requiredRule('请输入金额'), schemaRule(amountField)]}>
        <AmountInput label="金额" unit="USDT" placeholder={`最多 ${account.withdraw.max_withdrawable}`} />
      </Form.Item>
      <Form.Item
        name="pay_password"
        label="支付密码"
        rules={[requiredRule('请输入支付密码'), schemaRule(payPasswordField)]}
      >
        <Input type="password" inputMode="numeric" maxLength={6} placeholder="6位数字" clearable />
      </Form.Item>
    </SubmitForm>
  )
}
