import { Amount } from '@client/components/amount/amount'
import { PageShell } from '@client/components/page-shell/page-shell'
import { SubmitForm } from '@client/components/submit-form/submit-form'
import { paths } from '@client/config/paths'
import { requiredRule, schemaRule } from '@client/lib/form-rules'
import { callApi, newIdempotencyKey } from '@client/lib/http'
import { useBusy } from '@client/lib/use-busy'
import { passwordField, payPasswordField, phoneField } from '@shared/contract/fields'
import { excludedWithdraw } from '@shared/contract/protection'
import Form from 'antd-mobile/es/components/form'
import Input from 'antd-mobile/es/components/input'
import Result from 'antd-mobile/es/components/result'
import { useState } from 'react'
import { Link } from 'react-router-dom'
import './protection.css'

interface Values {
  phone: string
  password: string
  amount: string
  pay_password: string
}

/**
 * A withdrawal while a time-out or self-exclusion refuses login: the account's phone and login
 * password prove who asks, the payment password guards the money, and it goes to the default
 * address bound before.
 */
export function ExcludedWithdrawPage() {
  const [busy, run] = useBusy()
  const [key] = useState(newIdempotencyKey)
  const [done, setDone] = useState<{ order_no: string; amount: string; balance: string } | null>(null)

  const submit = (values: Values) =>
    run(async () => setDone(await callApi(excludedWithdraw, { body: values }, { idempotencyKey: key })))

  return (
    <PageShell title="暂停期提现" fallback={paths.responsible}>
      {done ? (
        <Result
          status="success"
          title="提现已提交"
          description={
            <>
              订单 <span className="num">{done.order_no}</span>，金额 <Amount value={done.amount} />
              ，余额 <Amount value={done.balance} />
            </>
          }
        />
      ) : (
        <>
          <p className="protection-help protection-page">
            暂停游戏或自我排除期间无法登录。你仍可在此把余额提到已绑定的默认提现地址。
          </p>
          <SubmitForm onFinish={submit} submitText="提交提现" busy={busy}>
            <Form.Item
              name="phone"
              label="手机号"
              rules={[requiredRule('请输入手机号'), schemaRule(phoneField)]}
            >
              <Input type="tel" autoComplete="username" placeholder="注册手机号" clearable />
            </Form.Item>
            <Form.Item
              name="password"
              label="登录密码"
              rules={[requiredRule('请输入登录密码'), schemaRule(passwordField)]}
            >
              <Input type="password" autoComplete="current-password" placeholder="登录密码" clearable />
            </Form.Item>
            <Form.Item name="amount" label="金额" rules={[requiredRule('请输入金额')]}>
              <Input inputMode="decimal" placeholder="USDT" clearable />
            </Form.Item>
            <Form.Item
              name="pay_password"
              label="支付密码"
              rules={[requiredRule('请输入支付密码'), schemaRule(payPasswordField)]}
            >
              <Input type="password" inputMode="numeric" maxLength={6} placeholder="6位数字" clearable />
            </Form.Item>
          </SubmitForm>
        </>
      )}
      <p className="protection-help protection-page">
        <Link to={paths.responsible}>返回负责任博彩</Link>
      </p>
    </PageShell>
  )
}
