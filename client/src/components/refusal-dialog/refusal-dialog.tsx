import { paths } from '@client/config/paths'
import { shownText } from '@client/lib/hide-amount'
import { navigateTo } from '@client/lib/navigation'
import type { Refusal } from '@client/lib/refusal'
import { session } from '@client/lib/session-store'
import Dialog from 'antd-mobile/es/components/dialog'
import { NumText } from '../num-text/num-text'
import './refusal-dialog.css'

const TITLE: Record<Refusal['kind'], string> = {
  'deposit-limit': '已达充值限额',
  'loss-limit': '已达亏损限额',
  exclusion: '暂停游戏中',
}

const UNTIL_LABEL: Record<Refusal['kind'], string> = {
  'deposit-limit': '限额重置',
  'loss-limit': '限额重置',
  exclusion: '暂停结束',
}

/** What the player can do now: see their limits, or take their balance out during the pause. */
const NEXT: Record<Refusal['kind'], { text: string; path: string }> = {
  'deposit-limit': { text: '查看我的限额', path: paths.protection },
  'loss-limit': { text: '查看我的限额', path: paths.protection },
  exclusion: { text: '暂停期提现', path: paths.excludedWithdraw },
}

/**
 * A protection refusal (lib/refusal.ts) in a dialog the player closes: the server's message, when
 * the limit resets or the pause ends, and a way on. Amounts in the message follow hide-amount.
 */
export function showRefusal(refusal: Refusal): void {
  const next = NEXT[refusal.kind]
  const handler = Dialog.show({
    title: TITLE[refusal.kind],
    content: (
      <div className="refusal-dialog" data-testid="refusal-dialog">
        <p>
          <NumText text={shownText(refusal.message, session.get().hideAmount)} />
        </p>
        {refusal.until ? (
          <p className="refusal-dialog__until">
            {UNTIL_LABEL[refusal.kind]}：<span className="num">{refusal.until}</span>（北京时间）
          </p>
        ) : null}
      </div>
    ),
    closeOnAction: true,
    actions: [
      [
        { key: 'close', text: '知道了' },
        {
          key: 'next',
          text: next.text,
          bold: true,
          onClick: () => {
            handler.close()
            navigateTo(next.path)
          },
        },
      ],
    ],
  })
}
