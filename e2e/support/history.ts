import { currentRound, placeBets } from '@shared/contract/games'
import { setProtectionLimit } from '@shared/contract/protection'
import { exchange } from '@shared/contract/wallet'
import { api } from './api'
import { type LoginResult, login, registerPlayer, topUp } from './emu'

/**
 * A fresh player with a history of every kind, logged in: a top-up with its first-deposit bonus, an
 * exchange, a fast-three bet, a deposit and a loss limit. The pages that list money then have rows.
 */
export async function playerWithHistory(): Promise<LoginResult> {
  const who = await registerPlayer()
  await topUp(who, '500')
  const session = await login(who.phone, who.password)
  const token = session.token
  await api(exchange, { token, body: { from: 'USDT', to: 'TRX', amount: '12.5' } })
  await api(setProtectionLimit, { token, body: { kind: 'deposit', period: 'day', amount: '800' } })
  await api(setProtectionLimit, { token, body: { kind: 'loss', period: 'week', amount: '300' } })
  const round = await api(currentRound, { query: { game: 'kuaisan' } })
  const roundId = round.ms_to_seal < 1_500 ? round.next.round_id : round.round_id
  await api(placeBets, {
    token,
    body: { game: 'kuaisan', round_id: roundId, bets: [{ bet_type: 'big', amount: '3.25' }] },
  })
  return session
}
