import { HideAmountToggle } from '@client/components/balance-text/balance-text'
import { offerExternalLink } from '@client/components/external-link/external-link'
import { availabilityOf, PageShell, ReadState } from '@client/components/page-shell/page-shell'
import { RequireLogin } from '@client/components/require-login/require-login'
import { paths } from '@client/config/paths'
import { openChat } from '@client/lib/chat-link'
import { copyText } from '@client/lib/copy'
import { useShownAmount } from '@client/lib/hide-amount'
import { captureElement } from '@client/lib/screenshot'
import { share as shareContent } from '@client/lib/share'
import { showToast } from '@client/lib/toast'
import { useApi } from '@client/lib/use-api'
import { useBusy } from '@client/lib/use-busy'
import { agentInfo, agentQrcode } from '@shared/contract/agent'
import { IMAGE_PROXY_PATH } from '@shared/contract/content'
import Button from 'antd-mobile/es/components/button'
import List from 'antd-mobile/es/components/list'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useEffect, useRef } from 'react'
import { useNavigate } from 'react-router-dom'
import './agent.css'

const QR_SIZE = 256
const SHARE_TEXT = '和我一起玩哈希游戏，注册时填写我的邀请码'

/** The messenger's share links: its app scheme first, the web share page as the fallback. */
export function shareLinks(inviteLink: string, code: string): { appUrl: string; webUrl: string } {
  const query = `url=${encodeURIComponent(inviteLink)}&text=${encodeURIComponent(`${SHARE_TEXT} ${code}`)}`
  return { appUrl: `tg://msg_url?${query}`, webUrl: `https://t.me/share/url?${query}` }
}

function InviteContent() {
  const navigate = useNavigate()
  const amount = useShownAmount()
  const info = useApi(agentInfo, undefined)
  const qr = useApi(agentQrcode, { size: QR_SIZE })
  const poster = useRef<HTMLDivElement>(null)
  const [saving, run] = useBusy()
  const stopChat = useRef<() => void>(() => {})
  useEffect(() => () => stopChat.current(), [])

  const data = info.data
  const qrMissing = availabilityOf(qr.data, qr.error) === 'missing'
  const savePoster = () =>
    run(async () => {
      if (!poster.current) return
      try {
        await captureElement(poster.current, { proxyUrl: IMAGE_PROXY_PATH })
      } catch (error) {
        console.error('poster capture failed', error)
        showToast('海报保存失败，请稍后再试', 'fail')
      }
    })

  const copy = (text: string | undefined) => {
    if (text) void copyText(text)
  }

  const share = () => {
    if (!data) return
    const content = { title: '哈希游戏', text: `${SHARE_TEXT} ${data.invite_code}`, url: data.invite_link }
    // The system share sheet where the browser has it; else the messenger, never in this tab.
    void shareContent(content, () => {
      stopChat.current()
      stopChat.current = openChat(shareLinks(data.invite_link, data.invite_code), undefined, (webUrl) =>
        offerExternalLink(webUrl, '分享给好友', '在新页面中分享'),
      )
    })
  }

  if (availabilityOf(info.data, info.error) === 'missing') {
    return (
      <div className="agent">
        <ReadState availability="missing" note="当前服务暂不支持邀请好友与团队返佣。">
          {null}
        </ReadState>
      </div>
    )
  }

  return (
    <div className="agent">
      <div className="agent__poster" ref={poster} data-testid="invite-poster">
        <p className="agent__poster-brand">哈希游戏</p>
        <p className="agent__poster-slogan">邀请好友，一起赢返佣</p>
        {qr.data ? (
          <img
            className="agent__qr"
            src={qr.data.image}
            width={qr.data.size}
            height={qr.data.size}
            alt="邀请二维码"
          />
        ) : qrMissing ? null : (
          <Skeleton className="agent__qr agent__qr--loading" animated />
        )}
        <p className="agent__poster-code">
          邀请码 <strong data-testid="invite-code">{data?.invite_code ?? '—'}</strong>
        </p>
        <p className="agent__poster-tip">扫码注册，或注册时填写邀请码</p>
      </div>

      <section className="agent__card" aria-label="邀请方式">
        <div className="agent__row">
          <span className="agent__label">邀请码</span>
          <span className="agent__value">{data?.invite_code ?? '—'}</span>
          <Button
            size="mini"
            color="primary"
            fill="outline"
            disabled={!data}
            onClick={() => copy(data?.invite_code)}
          >
            复制邀请码
          </Button>
        </div>
        <div className="agent__row">
          <span className="agent__label">邀请链接</span>
          <span className="agent__value agent__value--link" data-testid="invite-link">
            {data?.invite_link ?? '—'}
          </span>
          <Button
            size="mini"
            color="primary"
            fill="outline"
            disabled={!data}
            onClick={() => copy(data?.invite_link)}
          >
            复制链接
          </Button>
        </div>
        <div className="agent__actions">
          <Button
            block
            color="primary"
            loading={saving}
            disabled={!qr.data && !qrMissing}
            onClick={savePoster}
          >
            保存海报
          </Button>
          <Button block color="success" disabled={!data} onClick={share}>
            分享给好友
          </Button>
        </div>
      </section>

      <List className="agent__list" header="我的团队">
        <List.Item extra={data?.direct_count ?? '—'}>直属下级</List.Item>
        <List.Item extra={data?.team_count ?? '—'}>团队人数</List.Item>
        <List.Item extra={data ? amount(data.today_team_turnover) : '—'}>今日团队流水</List.Item>
        <List.Item extra={data ? amount(data.total_team_turnover) : '—'}>累计团队流水</List.Item>
        <List.Item extra={data ? amount(data.commission_today) : '—'}>今日返佣</List.Item>
        <List.Item
          extra={data ? amount(data.commission_claimable) : '—'}
          onClick={() => navigate(paths.rebate)}
          arrowIcon
        >
          待领取返佣
        </List.Item>
        <List.Item extra={data ? amount(data.commission_total) : '—'}>累计已领返佣</List.Item>
        <List.Item onClick={() => navigate(paths.performanceRecord)} arrowIcon>
          业绩记录
        </List.Item>
      </List>

      {data && data.levels.length > 0 ? (
        <List className="agent__list" header="各级返佣比例">
          {data.levels.map((level) => (
            <List.Item key={level.level} description={`${level.count} 人`} extra={level.rate}>
              {level.level === 1 ? '直属（一级）' : `${level.level}级下级`}
            </List.Item>
          ))}
        </List>
      ) : null}
      <p className="agent__tip">好友通过您的邀请注册并投注后，您按各级比例获得返佣，在返水页面领取。</p>
    </div>
  )
}

export function InviteFriendsPage() {
  return (
    <PageShell title="邀请好友" right={<HideAmountToggle />} fallback={paths.mine}>
      <RequireLogin>
        <InviteContent />
      </RequireLogin>
    </PageShell>
  )
}
