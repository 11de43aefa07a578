import type { drawResultSchema } from '@shared/contract/games'
import { gameCodeSchema } from '@shared/games/config'
import type { Round } from '@shared/games/rounds'
import { TRANSFER_KINDS, type TransferKind } from '@shared/games/transfer'
import type { z } from 'zod'
import type { BetAddressRow } from './bet-address-repository'
import type { DrawRow } from './game-repository'

type DrawResult = z.infer<typeof drawResultSchema>

/** Refusals the player sees, as the server sends them. */
export const GAME_MSG = {
  noRound: '期号不存在',
  drawn: (id: string) => `第 ${id} 期已开奖`,
  sealed: (id: string) => `第 ${id} 期已封盘，请投注下一期`,
  notOpen: (id: string) => `第 ${id} 期尚未开放投注`,
  unknownType: (t: string) => `未知的投注项：${t}`,
  belowMin: (min: string) => `单注金额不能低于 ${min}`,
  aboveMax: (label: string, max: string) => `${label} 本期累计投注不能超过 ${max}`,
  bothSides: (a: string, b: string) => `同一期不能同时投注 ${a} 和 ${b}`,
  insufficient: '余额不足',
  notDrawn: '该期尚未开奖',
  addressTaken: '该地址已被绑定',
  addressLimit: '最多绑定 10 个投注地址',
  addressUnknown: '投注地址不存在',
  fromUnbound: '转出地址未绑定到任何账号',
  fromNotYours: '转出地址不属于当前账号',
  toUnknown: '收款地址不存在',
  invalidDigit: '金额个位数无效',
  outOfLimits: '金额超出投注限额',
  chainSpent: '哈希链的区块已用完，请重置模拟器（POST /__emu/reset?scope=*）',
} as const

export const transferKind = (k: string): TransferKind => {
  const found = TRANSFER_KINDS.find((x) => x === k)
  if (!found) throw new Error(`unknown transfer kind ${k}`)
  return found
}

export const roundOut = (r: Round) => ({
  game: r.game,
  round_id: r.roundId,
  height: r.height,
  seal_at: r.sealAt,
  draw_at: r.drawAt,
})

export const parseNumbers = (text: string): number[] => {
  const v: unknown = JSON.parse(text)
  return Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : []
}
export const parseLabels = (text: string): Record<string, string> => {
  const v: unknown = JSON.parse(text)
  const out: Record<string, string> = {}
  if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x
  return out
}

export function drawOut(d: DrawRow): DrawResult {
  return {
    game: gameCodeSchema.parse(d.game),
    round_id: d.round_id,
    height: d.height,
    block_hash: d.block_hash,
    draw_at: d.draw_at,
    numbers: parseNumbers(d.numbers),
    labels: parseLabels(d.labels),
  }
}

export const addressOut = (a: BetAddressRow) => ({
  id: a.id,
  address: a.address,
  label: a.label,
  created_at: a.created_at,
  updated_at: a.updated_at,
})
