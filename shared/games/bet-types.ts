import type { GameCode } from './config'

/**
 * One bet a player can place: its id, a Chinese label and the group the slip shows it in. Its odds
 * are not written anywhere: `shared/games/odds.ts` derives them from the win chance and the
 * game's house edge.
 */
export interface BetKind {
  readonly type: string
  readonly label: string
  readonly group: string
}

export const BALL_NAMES = ['万', '千', '百', '十', '个'] as const
export const POSITION_NAMES = [
  '冠军',
  '亚军',
  '第三名',
  '第四名',
  '第五名',
  '第六名',
  '第七名',
  '第八名',
  '第九名',
  '第十名',
] as const

/** The word for each outcome label, one per label: bet slips and draw results both use it. */
export const SIDE_LABEL: Readonly<Record<string, string>> = {
  big: '大',
  small: '小',
  odd: '单',
  even: '双',
  lucky: '幸运',
  unlucky: '非幸运',
  banker: '庄',
  player: '闲',
  tie: '和',
  dragon: '龙',
  tiger: '虎',
}
const side = (s: string): string => SIDE_LABEL[s] ?? s

function qukuai(): BetKind[] {
  const groups: [string, string[]][] = [
    ['大小', ['big', 'small']],
    ['单双', ['odd', 'even']],
    ['幸运', ['lucky', 'unlucky']],
    ['庄闲', ['banker', 'player', 'tie']],
  ]
  return groups.flatMap(([group, keys]) => keys.map((k) => ({ type: k, label: side(k), group })))
}

function hassize(): BetKind[] {
  const plain = (['big', 'small', 'odd', 'even'] as const).map((k) => ({
    type: k,
    label: side(k),
    group: '哈希位',
  }))
  const sum = (['big', 'small', 'odd', 'even'] as const).map((k) => ({
    type: `sum_${k}`,
    label: `和值${side(k)}`,
    group: '和值',
  }))
  return [...plain, ...sum]
}

function kuaisan(): BetKind[] {
  const out: BetKind[] = (['big', 'small', 'odd', 'even'] as const).map((k) => ({
    type: k,
    label: side(k),
    group: '大小单双',
  }))
  for (let s = 3; s <= 18; s++) out.push({ type: `sum_${s}`, label: `和值 ${s}`, group: '和值' })
  out.push({ type: 'any_triple', label: '任意豹子', group: '豹子' })
  for (let d = 1; d <= 6; d++) out.push({ type: `triple_${d}`, label: `豹子 ${d}${d}${d}`, group: '豹子' })
  out.push({ type: 'any_straight', label: '任意顺子', group: '顺子' })
  for (let d = 1; d <= 6; d++) out.push({ type: `pair_${d}`, label: `对子 ${d}${d}`, group: '对子' })
  for (let a = 1; a <= 6; a++)
    for (let b = a + 1; b <= 6; b++)
      out.push({ type: `two_${a}_${b}`, label: `二不同号 ${a}${b}`, group: '二不同号' })
  return out
}

function shishicai(): BetKind[] {
  const out: BetKind[] = []
  BALL_NAMES.forEach((name, i) => {
    const n = i + 1
    for (const k of ['big', 'small', 'odd', 'even'] as const)
      out.push({
        type: `b${n}_${k}`,
        label: `${name}位 ${side(k)}`,
        group: `${name}位`,
      })
    for (let d = 0; d <= 9; d++)
      out.push({ type: `b${n}_d${d}`, label: `${name}位 ${d}`, group: `${name}位` })
  })
  for (const k of ['big', 'small', 'odd', 'even'] as const)
    out.push({
      type: `sum_${k}`,
      label: `总和${side(k)}`,
      group: '总和',
    })
  for (const k of ['dragon', 'tiger', 'tie'] as const) out.push({ type: k, label: side(k), group: '龙虎和' })
  return out
}

function saiche(): BetKind[] {
  const out: BetKind[] = []
  for (const k of ['big', 'small', 'odd', 'even'] as const)
    out.push({
      type: `top2_${k}`,
      label: `冠亚和 ${side(k)}`,
      group: '冠亚和',
    })
  POSITION_NAMES.forEach((name, i) => {
    const p = i + 1
    for (const k of ['big', 'small', 'odd', 'even'] as const)
      out.push({
        type: `p${p}_${k}`,
        label: `${name} ${side(k)}`,
        group: name,
      })
    if (p <= 5)
      for (const k of ['dragon', 'tiger'] as const)
        out.push({ type: `p${p}_${k}`, label: `${name} ${side(k)}`, group: name })
    for (let car = 1; car <= 10; car++)
      out.push({ type: `p${p}_c${car}`, label: `${name} ${car}号`, group: name })
  })
  return out
}

const KINDS: Record<GameCode, readonly BetKind[]> = {
  qukuai: qukuai(),
  hassize: hassize(),
  kuaisan: kuaisan(),
  shishicai: shishicai(),
  saiche: saiche(),
}

/** Every bet type of a game, in the order the slip shows them. */
export const betKindsOf = (game: GameCode): readonly BetKind[] => KINDS[game]

const OPPOSITES: Record<string, string> = {
  big: 'small',
  small: 'big',
  odd: 'even',
  even: 'odd',
  banker: 'player',
  player: 'banker',
  dragon: 'tiger',
  tiger: 'dragon',
}

/**
 * The other side of a two-sided pair (big/small, odd/even, banker/player, dragon/tiger), or null.
 * Betting both sides of one pair in one round is refused.
 */
export function oppositeOf(type: string): string | null {
  const cut = type.lastIndexOf('_')
  const prefix = cut < 0 ? '' : type.slice(0, cut + 1)
  const last = cut < 0 ? type : type.slice(cut + 1)
  const other = OPPOSITES[last]
  return other === undefined ? null : prefix + other
}
