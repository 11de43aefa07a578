import { AmountInput } from '@client/components/amount-input/amount-input'
import { BalanceText } from '@client/components/balance-text/balance-text'
import { useSession } from '@client/lib/session-store'
import type { DataOf } from '@shared/contract/endpoint'
import type { gameRules } from '@shared/contract/games'
import { type Dispatch, useMemo, useState } from 'react'
import {
  blockedBy,
  CHIPS,
  QUICK_AMOUNTS,
  type SlipAction,
  type SlipState,
  STAKE_PLACES,
  stakeFieldText,
} from './bet-slip'

export type Rules = DataOf<typeof gameRules>

export interface BetBoardProps {
  rules: Rules
  slip: SlipState
  dispatch: Dispatch<SlipAction>
  /** Bet types already placed on the round a new bet goes to. */
  placed: readonly string[]
}

/** The bet types with their odds (from the rules endpoint), the chips and the stake. */
export function BetBoard({ rules, slip, dispatch, placed }: BetBoardProps) {
  const balance = useSession((s) => s.balance)
  const groups = useMemo(() => {
    const out = new Map<string, Rules['bet_types']>()
    for (const t of rules.bet_types) out.set(t.group, [...(out.get(t.group) ?? []), t])
    return [...out.entries()]
  }, [rules])
  const labelOf = useMemo(() => new Map(rules.bet_types.map((t) => [t.bet_type, t.label])), [rules])
  const taken = [...slip.selected, ...placed]
  // The stake as the player typed it (see stakeFieldText).
  const [typed, setTyped] = useState('')

  return (
    <section className="games-slip">
      {groups.map(([group, types]) => (
        <div key={group} className="games-slip__group">
          <div className="games-slip__group-title">{group}</div>
          <div className="games-slip__types">
            {types.map((t) => {
              const on = slip.selected.includes(t.bet_type)
              const blocker = on ? null : blockedBy(t.bet_type, taken)
              return (
                <button
                  type="button"
                  key={t.bet_type}
                  className={on ? 'games-type games-type--on' : 'games-type'}
                  aria-pressed={on}
                  data-bet-type={t.bet_type}
                  disabled={blocker !== null}
                  title={
                    blocker ? `已选 ${labelOf.get(blocker) ?? blocker}，同一期不能再投对立项` : undefined
                  }
                  onClick={() => dispatch({ type: 'toggle', betType: t.bet_type })}
                >
                  <span>{t.label}</span>
                  <small data-public-figure>{t.odds}</small>
                </button>
              )
            })}
          </div>
        </div>
      ))}
      <div className="games-slip__chips">
        {CHIPS.map((c) => (
          <button
            type="button"
            key={c}
            className="games-chip"
            aria-label={`加 ${c}`}
            onClick={() => dispatch({ type: 'chip', amount: c })}
          >
            {c}
          </button>
        ))}
      </div>
      <div className="games-slip__amount">
        <AmountInput
          label="每注金额"
          unit="USDT"
          placeholder={`每注 ${rules.min_stake} – ${rules.max_stake}`}
          places={STAKE_PLACES}
          value={stakeFieldText(slip, typed)}
          onChange={(v) => {
            setTyped(v)
            dispatch({ type: 'set', amount: v })
          }}
          quick={QUICK_AMOUNTS}
        />
      </div>
      <div className="games-slip__tools">
        <button type="button" aria-label="减半" onClick={() => dispatch({ type: 'half' })}>
          ½
        </button>
        <button type="button" aria-label="加倍 ×2" onClick={() => dispatch({ type: 'double' })}>
          ×2
        </button>
        <button type="button" onClick={() => dispatch({ type: 'max', balance, maxStake: rules.max_stake })}>
          最大
        </button>
        <button type="button" onClick={() => dispatch({ type: 'clear' })}>
          清空
        </button>
        <span className="games-slip__balance">
          余额 <BalanceText balance={balance} />
        </span>
      </div>
    </section>
  )
}
