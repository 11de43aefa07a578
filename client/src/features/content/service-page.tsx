import { offerExternalLink } from '@client/components/external-link/external-link'
import { availabilityOf, PageShell, ReadState } from '@client/components/page-shell/page-shell'
import { paths } from '@client/config/paths'
import { openChat } from '@client/lib/chat-link'
import { useApi } from '@client/lib/use-api'
import { serviceInfo } from '@shared/contract/content'
import Button from 'antd-mobile/es/components/button'
import Collapse from 'antd-mobile/es/components/collapse'
import List from 'antd-mobile/es/components/list'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useEffect, useRef } from 'react'
import { useNavigate } from 'react-router-dom'
import { RichHtml } from './rich-html'
import './content.css'

/** Help pages, also listed on 我的. */
const HELP_LINKS = [
  { path: paths.newbie, title: '新手指引' },
  { path: paths.study, title: '教程' },
  { path: paths.vpn, title: '网络帮助' },
  { path: paths.third, title: '合作页面' },
] as const

/** The customer-service tab: the chat (app first, web after the fallback delay) and the FAQ. */
export function ServicePage() {
  const navigate = useNavigate()
  const { data, error, mutate } = useApi(serviceInfo, undefined)
  const availability = availabilityOf(data, error)
  const stopChat = useRef<() => void>(() => {})
  useEffect(() => () => stopChat.current(), [])

  const contact = () => {
    if (!data) return
    stopChat.current()
    stopChat.current = openChat({ appUrl: data.app_url, webUrl: data.web_url }, undefined, (webUrl) =>
      offerExternalLink(webUrl, '联系在线客服', '打开网页版客服'),
    )
  }

  return (
    <PageShell title="客服" back={false}>
      <div className="content">
        <section className="content__hero" aria-label="在线客服">
          <p className="content__title">在线客服</p>
          <p>充值、提现、游戏规则与账户安全问题，客服在聊天软件中为您解答。</p>
          {availability === 'missing' ? (
            <p data-testid="endpoint-missing">当前服务暂未开通在线客服，请通过下方帮助自助解决。</p>
          ) : (
            <>
              <p>服务时间：{data?.hours ?? '—'}</p>
              <Button color="default" disabled={!data} onClick={contact}>
                联系在线客服
              </Button>
            </>
          )}
        </section>
        <List className="content__list" header="帮助">
          {HELP_LINKS.map((link) => (
            <List.Item key={link.path} arrowIcon onClick={() => navigate(link.path)}>
              {link.title}
            </List.Item>
          ))}
        </List>
        <ReadState
          availability={availability}
          onRetry={() => void mutate()}
          missing="hide"
          loading={<Skeleton.Paragraph lineCount={6} animated />}
        >
          <h2 className="content__title">常见问题</h2>
          <Collapse className="content__articles" accordion data-testid="service-faq">
            {data?.faq.map((item) => (
              <Collapse.Panel key={String(item.id)} title={item.question}>
                <RichHtml html={item.answer_html} />
              </Collapse.Panel>
            ))}
          </Collapse>
        </ReadState>
        <p className="content__tip">客服不会索要您的登录密码或支付密码，请勿告诉任何人。</p>
      </div>
    </PageShell>
  )
}
