import { Amount } from '@client/components/amount/amount'
import { signedAmount } from '@client/lib/format'
import { callApi } from '@client/lib/http'
import { logOut } from '@client/lib/session-actions'
import { useBusy } from '@client/lib/use-busy'
import { acknowledgeRealityCheck, type RealityCheck, realityCheck } from '@shared/contract/protection'
import Dialog from 'antd-mobile/es/components/dialog'
import { useEffect } from 'react'
import { formatDuration } from './protection-format'
import { useProtectionRead } from './use-protection-read'
import './protection.css'

/** How often the reminder's state is read again, so a moved emulator clock or another tab is seen. */
const REFRESH_MS = 60_000

/** Whether the reminder is due: on the server's clock, as the answer gave it. */
export const isDue = (check: RealityCheck | undefined): boolean =>
  check?.next_due_at != null && check.now >= check.next_due_at

/**
 * The reality check, for a logged-in player who chose an interval: when the interval is up the
 * dialog shows the session's length, stakes, payouts and net result. "继续游戏" starts the next
 * interval, "停止游戏" logs out. The due time comes from the server (the session's start and the
 * last "continue"), so a reload shows the dialog again until it is answered.
 */
export function RealityCheckWatch() {
  const check = useProtectionRead(realityCheck, undefined, REFRESH_MS)
  const data = check.data
  const [busy, run] = useBusy()

  const { mutate } = check
  // Read again when the next reminder falls due, counted on the server's clock from its answer.
  useEffect(() => {
    if (!data || data.next_due_at === null || isDue(data)) return
    const wait = Math.min(data.next_due_at - data.now, 2 ** 31 - 1)
    const timer = setTimeout(() => mutate(), wait)
    return () => clearTimeout(timer)
  }, [data, mutate])

  if (!data || !isDue(data)) return null

  const keepPlaying = () =>
    run(async () => mutate(await callApi(acknowledgeRealityCheck), { revalidate: false }))

  return (
    <Dialog
      visible
      title="游戏时间提醒"
      content={
        <dl className="reality-check" data-testid="reality-check">
          <dt>本次游戏时长</dt>
          <dd>{formatDuration(data.now - data.session_started_at)}</dd>
          <dt>投注</dt>
          <dd>
            <Amount value={data.stakes} />
          </dd>
          <dt>派奖</dt>
          <dd>
            <Amount value={data.payouts} />
          </dd>
          <dt>净输赢</dt>
          <dd className={data.net_result.startsWith('-') ? 'reality-check__loss' : undefined}>
            <Amount value={signedAmount(data.net_result)} />
          </dd>
        </dl>
      }
      actions={[
        [
          { key: 'stop', text: '停止游戏', danger: true, onClick: () => logOut() },
          { key: 'continue', text: '继续游戏', bold: true, disabled: busy, onClick: keepPlaying },
        ],
      ]}
    />
  )
}
