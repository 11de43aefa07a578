import { describe, expect, it } from 'vitest'
import { BALL_NAMES, betKindsOf, oppositeOf, POSITION_NAMES, SIDE_LABEL } from './bet-types'

/** What the bet slip offers: every bet type with its label and group, as the player reads them. */

const kinds = (game: Parameters<typeof betKindsOf>[0]) =>
  betKindsOf(game).map((k) => `${k.group}|${k.type}|${k.label}`)
const groups = (game: Parameters<typeof betKindsOf>[0]) => {
  const out = new Map<string, number>()
  for (const k of betKindsOf(game)) out.set(k.group, (out.get(k.group) ?? 0) + 1)
  return [...out]
}

describe('bet types', () => {
  it('names every side as the app writes it', () => {
    expect(SIDE_LABEL).toEqual({
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
    })
    expect(BALL_NAMES).toEqual(['万', '千', '百', '十', '个'])
    expect(POSITION_NAMES).toEqual([
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
    ])
  })

  it('block game and hash size: every bet, in slip order', () => {
    expect(kinds('qukuai')).toEqual([
      '大小|big|大',
      '大小|small|小',
      '单双|odd|单',
      '单双|even|双',
      '幸运|lucky|幸运',
      '幸运|unlucky|非幸运',
      '庄闲|banker|庄',
      '庄闲|player|闲',
      '庄闲|tie|和',
    ])
    expect(kinds('hassize')).toEqual([
      '哈希位|big|大',
      '哈希位|small|小',
      '哈希位|odd|单',
      '哈希位|even|双',
      '和值|sum_big|和值大',
      '和值|sum_small|和值小',
      '和值|sum_odd|和值单',
      '和值|sum_even|和值双',
    ])
  })

  it('fast three: its groups, and each kind of label', () => {
    expect(groups('kuaisan')).toEqual([
      ['大小单双', 4],
      ['和值', 16],
      ['豹子', 7],
      ['顺子', 1],
      ['对子', 6],
      ['二不同号', 15],
    ])
    const all = kinds('kuaisan')
    for (const k of [
      '大小单双|big|大',
      '大小单双|even|双',
      '和值|sum_3|和值 3',
      '和值|sum_18|和值 18',
      '豹子|any_triple|任意豹子',
      '豹子|triple_1|豹子 111',
      '豹子|triple_6|豹子 666',
      '顺子|any_straight|任意顺子',
      '对子|pair_1|对子 11',
      '对子|pair_6|对子 66',
      '二不同号|two_1_2|二不同号 12',
      '二不同号|two_5_6|二不同号 56',
    ])
      expect(all).toContain(k)
    expect(all).not.toContain('二不同号|two_2_2|二不同号 22')
  })

  it('time-time colour: five balls, the sum and dragon/tiger/tie', () => {
    expect(groups('shishicai')).toEqual([
      ['万位', 14],
      ['千位', 14],
      ['百位', 14],
      ['十位', 14],
      ['个位', 14],
      ['总和', 4],
      ['龙虎和', 3],
    ])
    const all = kinds('shishicai')
    for (const k of [
      '万位|b1_big|万位 大',
      '个位|b5_even|个位 双',
      '万位|b1_d0|万位 0',
      '个位|b5_d9|个位 9',
      '总和|sum_big|总和大',
      '总和|sum_even|总和双',
      '龙虎和|dragon|龙',
      '龙虎和|tiger|虎',
      '龙虎和|tie|和',
    ])
      expect(all).toContain(k)
  })

  it('racing: the top-two sum, and per position the sides, dragon/tiger for the first five, and the cars', () => {
    expect(groups('saiche')).toEqual([
      ['冠亚和', 4],
      ...POSITION_NAMES.map((name, i): [string, number] => [name, i < 5 ? 16 : 14]),
    ])
    const all = kinds('saiche')
    for (const k of [
      '冠亚和|top2_big|冠亚和 大',
      '冠亚和|top2_even|冠亚和 双',
      '冠军|p1_big|冠军 大',
      '第十名|p10_even|第十名 双',
      '冠军|p1_dragon|冠军 龙',
      '第五名|p5_tiger|第五名 虎',
      '冠军|p1_c1|冠军 1号',
      '第十名|p10_c10|第十名 10号',
    ])
      expect(all).toContain(k)
    expect(all).not.toContain('第六名|p6_dragon|第六名 龙')
  })

  it('names the other side of a two-sided pair, and no other', () => {
    expect(oppositeOf('big')).toBe('small')
    expect(oppositeOf('even')).toBe('odd')
    expect(oppositeOf('banker')).toBe('player')
    expect(oppositeOf('player')).toBe('banker')
    expect(oppositeOf('p4_tiger')).toBe('p4_dragon')
    expect(oppositeOf('b3_small')).toBe('b3_big')
    expect(oppositeOf('p2_dragon')).toBe('p2_tiger')
    expect(oppositeOf('top2_odd')).toBe('top2_even')
    expect(oppositeOf('tie')).toBeNull()
    expect(oppositeOf('sum_9')).toBeNull()
    expect(oppositeOf('lucky')).toBeNull()
  })
})
