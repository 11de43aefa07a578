import { PageShell } from '@client/components/page-shell/page-shell'
import { RequireLogin } from '@client/components/require-login/require-login'
import { paths } from '@client/config/paths'
import { useSession } from '@client/lib/session-store'
import List from 'antd-mobile/es/components/list'
import { useNavigate } from 'react-router-dom'
import './security.css'

export function SecurityCenterPage() {
  const navigate = useNavigate()
  const userInfo = useSession((s) => s.userInfo)
  return (
    <PageShell title="安全中心" fallback={paths.mine}>
      <RequireLogin>
        <List className="security__list" header="账户安全">
          <List.Item extra={userInfo?.phone}>绑定手机</List.Item>
          <List.Item onClick={() => navigate(paths.passwordChange)} description="用于登录账户" arrowIcon>
            登录密码
          </List.Item>
          <List.Item
            onClick={() => navigate(paths.payPasswordChange)}
            description="用于提现等资金操作"
            extra={userInfo?.has_pay_password ? '已设置' : '未设置'}
            arrowIcon
          >
            支付密码
          </List.Item>
        </List>
        <p className="security__tip">为了您的资金安全，请勿将密码告诉他人，客服不会索要您的密码。</p>
      </RequireLogin>
    </PageShell>
  )
}
