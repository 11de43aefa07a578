// @vitest-environment happy-dom

import { networkHelp } from '@shared/contract/content'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { ArticleList } from './article-list'

afterEach(cleanup)

// The network-help answer as the emulator sends it, parsed by the contract the page uses.
const help = networkHelp.data.parse({
  list: [
    {
      id: 1,
      title: '连接不稳定怎么办',
      summary: '先测网络延迟，再按步骤排查。',
      category: '网络',
      content_html:
        '<ol><li>点击「测速」查看到服务器的延迟；</li><li>切换 Wi-Fi 与移动数据后重试；</li></ol>',
    },
    {
      id: 2,
      title: '无法打开页面',
      summary: '清除缓存，检查系统时间。',
      category: '网络',
      content_html: '<ul><li>清除浏览器缓存后刷新；</li></ul>',
    },
  ],
  ping_path: '/api/content/ping',
  good_ms: 200,
  fair_ms: 600,
})

describe('ArticleList', () => {
  it('lists titles and summaries, and shows an article’s rich content when opened', async () => {
    const { container } = render(<ArticleList articles={help.list} />)
    expect(screen.getByText('连接不稳定怎么办')).toBeTruthy()
    expect(screen.getByText('清除缓存，检查系统时间。')).toBeTruthy()
    await act(async () => {
      fireEvent.click(screen.getByText('无法打开页面'))
    })
    const rich = container.querySelector('.content__rich li')
    expect(rich?.textContent).toBe('清除浏览器缓存后刷新；')
  })

  it('opens the given article at first', () => {
    const { container } = render(<ArticleList articles={help.list} defaultOpen={1} />)
    expect(container.querySelector('.content__rich ol li')?.textContent).toBe(
      '点击「测速」查看到服务器的延迟；',
    )
  })

  it('says so when there is nothing to show', () => {
    render(<ArticleList articles={[]} />)
    expect(screen.getByText('暂无内容')).toBeTruthy()
  })
})
