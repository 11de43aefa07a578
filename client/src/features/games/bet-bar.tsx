import { Amount } from '@client/components/amount/amount'
import { loginPath } from '@client/config/paths'
import { useShownAmount } from '@client/lib/hide-amount'
import { callApi, newIdempotencyKey } from '@client/lib/http'
import { session, useSession } from '@client/lib/session-store'
import { showToast } from '@client/lib/toast'
import { useBusy } from '@client/lib/use-busy'
import type { DataOf } from '@shared/contract/endpoint'
import { placeBets } from '@shared/contract/games'
import type { GameCode } from '@shared/games/config'
import Button from 'antd-mobile/es/components/button'
import List from 'antd-mobile/es/components/list'
import Popup from 'antd-mobile/es/components/popup'
import { type Dispatch, useMemo, useRef, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import type { Rules } from './bet-board'
import { checkSlip, potentialPayout, type SlipAction, type SlipState, stakeText, totalText } from './bet-slip'
import { formatCountdown } from './countdown'
import type { RoundView } from './use-round'

export type BetItem = DataOf<typeof placeBets>['bets'][number]

export interface BetBarProps {
  game: GameCode
  rules: Rules
  view: RoundView
  slip: SlipState
  dispatch: Dispatch<SlipAction>
  onPlaced: (update: (bets: BetItem[]) => BetItem[]) => void
}

/**
 * The bar that stays at the bottom of the screen: the round's two countdowns, what is picked and
 * its total, and the bet button. The confirmation sheet names the round the bets go to; when that
 * round closes before the player confirms, nothing is sent and the sheet asks again for the next.
 */
export function BetBar({ game, rules, view, slip, dispatch, onPlaced }: BetBarProps) {
  const navigate = useNavigate()
  const [pinned, setPinned] = useState<string | null>(null)
  const [sending, run] = useBusy()
  const isLogin = useSession((s) => s.isLogin)
  const balance = useSession((s) => s.balance)
  const money = useShownAmount()
  // One key per confirmed slip: a retry of the same confirmation cannot place it twice.
  const idempotencyKey = useRef(newIdempotencyKey())
  const byType = useMemo(() => new Map(rules.bet_types.map((t) => [t.bet_type, t])), [rules])
  const check = checkSlip(slip, { minStake: rules.min_stake, maxStake: rules.max_stake, balance })
  const { round, target, msToSeal, msToDraw, sealed } = view
  const moved = pinned !== null && target !== null && target.round.round_id !== pinned

  const open = () => {
    if (!isLogin) {
      navigate(loginPath())
      return
    }
    if (!check.ok) return showToast(check.message ?? '请检查投注')
    if (!target) return showToast('正在等待下一期开盘')
    idempotencyKey.current = newIdempotencyKey()
    setPinned(target.round.round_id)
  }

  const confirm = async () => {
    if (!pinned || !target || sending) return
    if (target.round.round_id !== pinned) {
      // The round changed under the sheet: nothing is sent until the player agrees to the new one.
      idempotencyKey.current = newIdempotencyKey()
      setPinned(target.round.round_id)
      return
    }
    // On a failure the HTTP client shows why and the sheet stays open to retry.
    await run(async () => {
      const res = await callApi(
        placeBets,
        {
          body: {
            game,
            round_id: pinned,
            bets: slip.selected.map((bet_type) => ({ bet_type, amount: stakeText(slip) })),
          },
        },
        { idempotencyKey: idempotencyKey.current },
      )
      session.setBalance(res.balance)
      onPlaced((bets) => [...res.bets, ...bets.filter((b) => !res.bets.some((n) => n.id === b.id))])
      setPinned(null)
      dispatch({ type: 'clear' })
      showToast('投注成功')
    })
  }

  return (
    <>
      <div className="games-bar" data-testid="bet-bar">
        <div className="games-bar__clocks">
          <span>
            第 {round?.round_id ?? '—'} 期{sealed ? ' 已封盘' : ''}
          </span>
          <span>
            封盘 <b data-testid="bar-to-seal">{formatCountdown(msToSeal)}</b>
          </span>
          <span>
            开奖 <b data-testid="bar-to-draw">{formatCountdown(msToDraw)}</b>
          </span>
        </div>
        <div className="games-bar__row">
          <div className="games-bar__sum" data-testid="bar-summary">
            已选 <b data-testid="bar-count">{slip.selected.length}</b> 注 · 共{' '}
            <b data-testid="bar-total">{money(totalText(slip))}</b>
            <div className="games-bar__target">
              {target ? `投注进入第 ${target.round.round_id} 期` : '等待下一期开盘'}
            </div>
          </div>
          <Button color="primary" className="games-bar__button" disabled={!round} onClick={open}>
            投注
          </Button>
        </div>
      </div>
      <Popup visible={pinned !== null} onMaskClick={() => setPinned(null)} bodyClassName="games-confirm">
        <h3 data-testid="confirm-round">确认投注 · 第 {pinned} 期</h3>
        {target && !moved ? (
          <div className="games-confirm__note">
            本期 {formatCountdown(target.msToSeal)} 后封盘，封盘后不再接受投注
          </div>
        ) : null}
        {moved && target ? (
          <div className="games-warning" role="alert" data-testid="round-moved">
            <strong>第 {pinned} 期已封盘</strong>
            <p>投注没有发送。如要投注下一期（第 {target.round.round_id} 期），请再次确认。</p>
          </div>
        ) : null}
        {!target ? <div className="games-confirm__note">正在等待下一期开盘…</div> : null}
        <List>
          {slip.selected.map((t) => {
            const type = byType.get(t)
            const odds = type?.odds ?? '0'
            return (
              <List.Item
                key={t}
                extra={
                  <span className="games-confirm__odds">
                    赔率 {odds}
                    <br />
                    可赢 <Amount value={potentialPayout(stakeText(slip), odds)} unit="" reveal />
                  </span>
                }
                description={
                  <>
                    每注 <Amount value={stakeText(slip)} unit="" reveal />
                  </>
                }
              >
                {type?.label ?? t}
              </List.Item>
            )
          })}
        </List>
        {/* What the player confirms is shown even while amounts are hidden (docs/client.md#amounts). */}
        <div className="games-confirm__total">
          合计 <Amount value={totalText(slip)} reveal />
        </div>
        <div className="games-confirm__actions">
          <Button onClick={() => setPinned(null)}>取消</Button>
          <Button color="primary" loading={sending} disabled={!target} onClick={confirm}>
            {moved && target ? `改投第 ${target.round.round_id} 期` : '确认投注'}
          </Button>
        </div>
      </Popup>
    </>
  )
}
