import { Amount } from '@client/components/amount/amount'
import { loginPath } from '@client/config/paths'
import { useShownAmount } from '@client/lib/hide-amount'
import { callApi } from '@client/lib/http'
import { session, useSession } from '@client/lib/session-store'
import { SubmissionKey } from '@client/lib/submission-key'
import { showToast } from '@client/lib/toast'
import { useBusy } from '@client/lib/use-busy'
import type { DataOf } from '@shared/contract/endpoint'
import { placeBets } from '@shared/contract/games'
import type { GameCode } from '@shared/games/config'
import Button from 'antd-mobile/es/components/button'
import List from 'antd-mobile/es/components/list'
import Popup from 'antd-mobile/es/components/popup'
import { type Dispatch, useMemo, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import type { Rules } from './bet-board'
import { checkSlip, potentialPayout, type SlipAction, type SlipState, stakeText, totalText } from './bet-slip'
import { formatCountdown, msLeft } from './countdown'
import { settlementWatch } from './settlement-watch'
import { type RoundRef, type RoundView, sheetTarget } from './use-round'

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
 * its total, and the bet button. The bar says, before the tap, which round a bet goes to: the
 * earliest one with at least 3 s left before its sealing (MIN_CONFIRM_MS), so the sheet never opens
 * on a round about to close; when it skips one, it says so. If the round still closes before the
 * player confirms, nothing is sent and the sheet asks again for the next.
 */
export function BetBar({ game, rules, view, slip, dispatch, onPlaced }: BetBarProps) {
  const navigate = useNavigate()
  const [pinned, setPinned] = useState<RoundRef | null>(null)
  const [sending, run] = useBusy()
  const isLogin = useSession((s) => s.isLogin)
  const balance = useSession((s) => s.balance)
  const money = useShownAmount()
  // One key per attempt: a retry of the same confirmation cannot place it twice, and a refused one
  // never blocks the next (docs/client.md#submission-keys).
  const [key] = useState(() => new SubmissionKey())
  const byType = useMemo(() => new Map(rules.bet_types.map((t) => [t.bet_type, t])), [rules])
  const check = checkSlip(slip, { minStake: rules.min_stake, maxStake: rules.max_stake, balance })
  const { round, target, msToSeal, msToDraw, sealed, offset } = view
  const now = Date.now()
  // Where a bet goes if the player taps now, and (in the sheet) where it goes instead once the
  // pinned round has closed.
  const goesTo = round ? sheetTarget(round, now, offset) : null
  const pinnedOpen = pinned !== null && msLeft(pinned.seal_at, now, offset) > 0
  const moved = pinned !== null && !pinnedOpen
  const next = moved ? goesTo : null
  // The round open for bets now is skipped because it closes too soon to confirm.
  const skipped =
    target !== null && goesTo !== null && target.round.round_id !== goesTo.round.round_id
      ? target.round.round_id
      : null

  const open = () => {
    if (!isLogin) {
      navigate(loginPath())
      return
    }
    if (!check.ok) return showToast(check.message ?? '请检查投注')
    if (!goesTo) return showToast('正在等待下一期开盘')
    setPinned(goesTo.round)
  }

  const confirm = async () => {
    if (!pinned || sending) return
    if (moved) {
      // The round closed under the sheet: nothing is sent until the player agrees to the next one.
      if (!next) return
      setPinned(next.round)
      return
    }
    // On a failure the HTTP client shows why and the sheet stays open to retry.
    await run(async () => {
      const body = {
        game,
        round_id: pinned.round_id,
        bets: slip.selected.map((bet_type) => ({ bet_type, amount: stakeText(slip) })),
      }
      const res = await key.send(body, (idempotencyKey) => callApi(placeBets, { body }, { idempotencyKey }))
      session.setBalance(res.balance)
      // Followed until settled, whatever page the player is on by then.
      settlementWatch.track(res.bets)
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
            <div className="games-bar__target" data-testid="bar-target">
              {goesTo
                ? skipped
                  ? `第 ${skipped} 期即将封盘，投注进入第 ${goesTo.round.round_id} 期`
                  : `投注进入第 ${goesTo.round.round_id} 期`
                : '等待下一期开盘'}
            </div>
          </div>
          <Button color="primary" className="games-bar__button" disabled={!round} onClick={open}>
            投注
          </Button>
        </div>
      </div>
      <Popup visible={pinned !== null} onMaskClick={() => setPinned(null)} bodyClassName="games-confirm">
        <h3 data-testid="confirm-round">确认投注 · 第 {pinned?.round_id} 期</h3>
        {pinned && !moved ? (
          <div className="games-confirm__note" data-testid="confirm-note">
            第 {pinned.round_id} 期 {formatCountdown(msLeft(pinned.seal_at, now, offset))}{' '}
            后封盘，封盘后不再接受投注
            {round && pinned.round_id !== round.round_id ? '（当前期即将或已经封盘，本次投注进入此期）' : ''}
          </div>
        ) : null}
        {moved && next ? (
          <div className="games-warning" role="alert" data-testid="round-moved">
            <strong>第 {pinned?.round_id} 期已封盘</strong>
            <p>投注没有发送。如要投注第 {next.round.round_id} 期，请再次确认。</p>
          </div>
        ) : null}
        {moved && !next ? <div className="games-confirm__note">正在等待下一期开盘…</div> : null}
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
          <Button color="primary" loading={sending} disabled={moved && !next} onClick={confirm}>
            {moved && next ? `改投第 ${next.round.round_id} 期` : '确认投注'}
          </Button>
        </div>
      </Popup>
    </>
  )
}
