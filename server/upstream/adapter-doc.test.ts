import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { getBalance } from '@shared/contract/account'
import { gameResults } from '@shared/contract/games'
import { fundFlow } from '@shared/contract/wallet'
import { describe, expect, it } from 'vitest'
import { ROOT_DIR } from '../paths'
import { loadAdapter } from './adapter'

/**
 * docs/upstream-adapter.md is what an operator writes a file from: every YAML block in it loads as
 * it is, and its worked example does what the page says.
 */
const DOC = readFileSync(join(ROOT_DIR, 'docs/upstream-adapter.md'), 'utf8')
const blocks = [...DOC.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '')
const lineOf = (block: string) => DOC.slice(0, DOC.indexOf(block)).split('\n').length

describe('docs/upstream-adapter.md', () => {
  it('has examples, and every one of them is a valid adapter file', () => {
    expect(blocks.length).toBeGreaterThan(20)
    for (const block of blocks) {
      expect(() => loadAdapter(`docs/upstream-adapter.md:${lineOf(block)}`, block)).not.toThrow()
    }
  })

  it('shows the mistakes a file with mistakes is refused with, as they are', () => {
    const section = DOC.slice(DOC.indexOf('## Checking a file'), DOC.indexOf('## A worked example'))
    const bad = /```text\n([\s\S]*?)^```$/m.exec(section)?.[1] ?? ''
    const shown = /```\nUPSTREAM_ADAPTER is not valid:\n([\s\S]*?)^```$/m.exec(section)?.[1] ?? ''
    expect(() => loadAdapter('adapter.yaml', bad)).toThrow(shown.trimEnd())
  })

  it('its worked example translates the call and the answers as the page shows', () => {
    const section = DOC.slice(DOC.indexOf('## A worked example'), DOC.indexOf('## The file'))
    const yaml = blocks.find((b) => section.includes(b))
    const adapter = loadAdapter('worked-example.yaml', yaml ?? '')

    const call = adapter.request(fundFlow, { page: '1', type: 'topup' })
    expect(call).toEqual({
      method: 'GET',
      path: '/api/v1/wallet/flows',
      encoding: 'query',
      fields: { pageNum: '1', bizType: 'TOPUP', appId: 'h5' },
    })
    expect(section).toContain('`GET /api/v1/wallet/flows?pageNum=1&bizType=TOPUP&appId=h5`')
    const headers = { token: '7f3c' }
    adapter.headers(headers)
    expect(headers).toEqual({ authorization: 'Bearer 7f3c' })

    const balance = adapter.answer(getBalance, {
      status: '0000',
      message: 'ok',
      result: { usdt: '1,234.50', trx: 0 },
    })
    expect(balance).toEqual({ code: 1, msg: 'ok', data: { balance: '1234.50', trx_balance: '0.00' } })

    const flows = adapter.answer(
      fundFlow,
      {
        status: '0000',
        message: 'ok',
        result: {
          records: [{ flowNo: 7, bizType: 'TOPUP', amount: 10000, createTime: '2026-11-28 10:30:00' }],
          totalCount: 1,
        },
      },
      { page: '1', type: 'topup' },
    )
    expect(flows).toEqual({
      code: 1,
      msg: 'ok',
      data: {
        list: [{ id: 7, type: 'topup', amount: '100.00', created_at: 1_795_833_000_000 }],
        total: 1,
        page: 1,
        page_size: 20,
        has_more: false,
      },
    })
    // The answer the page shows is this one.
    const shown = /```json\n([\s\S]*?)^```$/m.exec(section)?.[1]
    expect(JSON.parse(shown ?? 'null')).toEqual(flows)
    expect(adapter.answer(getBalance, { status: 'A0401', message: '登录已过期', result: null }).code).toBe(
      10001,
    )
  })

  it('a path ending in [] reaches each element of a list of plain values, as the page says', () => {
    const adapter = loadAdapter(
      'p.yaml',
      'endpoints:\n  gameResults:\n    answer:\n      types: { "list[].numbers[]": int }\n',
    )
    expect(
      adapter.answer(gameResults, { code: 1, msg: '', data: { list: [{ numbers: ['3', '5'] }] } }).data,
    ).toEqual({
      list: [{ numbers: [3, 5] }],
    })
  })
})
