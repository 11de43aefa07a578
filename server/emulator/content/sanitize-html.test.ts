import fc from 'fast-check'
import { parseDocument } from 'htmlparser2'
import { describe, expect, it } from 'vitest'
import { isSafeImageSrc, isSafeLink, sanitizeHtml } from './sanitize-html'

/** Everything a browser could run: script elements, on* attributes, javascript:/vbscript:/data: links. */
function liveParts(html: string): string[] {
  const found: string[] = []
  const walk = (nodes: ReturnType<typeof parseDocument>['children']) => {
    for (const n of nodes) {
      if (!('attribs' in n)) continue
      if (['script', 'iframe', 'object', 'embed', 'style', 'svg'].includes(n.name)) found.push(`<${n.name}>`)
      for (const [k, v] of Object.entries(n.attribs)) {
        if (k.startsWith('on')) found.push(k)
        if (['href', 'src', 'action', 'formaction', 'xlink:href'].includes(k) && !isSafeLink(v))
          found.push(`${k}=${v}`)
        if (k === 'style') found.push('style')
      }
      walk(n.children)
    }
  }
  walk(parseDocument(html).children)
  return found
}

const KEPT = ['p', 'div', 'a', 'img', 'b', 'strong', 'em', 'br', 'span']

describe('sanitizeHtml', () => {
  it('keeps ordinary rich content', () => {
    const html =
      '<h2>首充活动</h2><p>充值 <strong>100 USDT</strong> 送 <em>10%</em>。</p><ul><li>一</li><li>二</li></ul>' +
      '<p><a href="https://example.com/rules" target="_blank">规则</a> <img src="/api/content/images/a.svg" alt="图"></p>'
    expect(sanitizeHtml(html)).toBe(
      '<h2>首充活动</h2><p>充值 <strong>100 USDT</strong> 送 <em>10%</em>。</p><ul><li>一</li><li>二</li></ul>' +
        '<p><a href="https://example.com/rules" target="_blank" rel="noopener noreferrer">规则</a> <img src="/api/content/images/a.svg" alt="图"></p>',
    )
  })

  it('removes script elements with their content', () => {
    expect(sanitizeHtml('<p>a</p><script>alert(1)</script><p>b</p>')).toBe('<p>a</p><p>b</p>')
    expect(sanitizeHtml('<SCRIPT SRC=//evil.example/x.js></SCRIPT>ok')).toBe('ok')
    expect(sanitizeHtml('<scr<script>ipt>alert(1)</script>')).not.toMatch(/<script/i)
  })

  it('removes event handlers such as onerror', () => {
    expect(sanitizeHtml('<img src=x onerror=alert(1)>')).toBe('<img src="x">')
    expect(sanitizeHtml('<p onclick="steal()" ONMOUSEOVER="x()">hi</p>')).toBe('<p>hi</p>')
    expect(sanitizeHtml('<body onload=alert(1)>text</body>')).toBe('text')
  })

  it('drops javascript:, vbscript: and data: links however they are disguised', () => {
    for (const href of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java&#x09;script:alert(1)',
      '&#106;avascript:alert(1)',
      'javascript&colon;alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    ]) {
      const out = sanitizeHtml(`<a href="${href}">x</a>`)
      expect(out, href).toBe('<a>x</a>')
    }
  })

  it('keeps http(s), mailto, tel and relative links', () => {
    for (const href of [
      'https://a.example/x',
      'http://a.example',
      'mailto:a@b.c',
      'tel:123',
      '/activity',
      '#top',
      'page?x=1',
    ]) {
      expect(sanitizeHtml(`<a href="${href}">x</a>`)).toBe(`<a href="${href.replace(/&/g, '&amp;')}">x</a>`)
    }
  })

  it('allows only https, relative and base64 raster data URLs as image sources', () => {
    expect(isSafeImageSrc('https://a.example/x.png')).toBe(true)
    expect(isSafeImageSrc('/api/content/images/a.svg')).toBe(true)
    expect(isSafeImageSrc('data:image/png;base64,iVBORw0KGgo=')).toBe(true)
    expect(isSafeImageSrc('data:image/svg+xml;base64,PHN2Zz4=')).toBe(false)
    expect(isSafeImageSrc('javascript:alert(1)')).toBe(false)
    expect(isSafeImageSrc('http://a.example/x.png')).toBe(false)
  })

  it('drops styles, frames, forms, svg and comments, and unwraps unknown tags', () => {
    expect(sanitizeHtml('<style>p{}</style><p style="background:url(javascript:x)">a</p>')).toBe('<p>a</p>')
    expect(sanitizeHtml('<iframe src="https://x"></iframe><object data=x></object><embed src=x>ok')).toBe(
      'ok',
    )
    expect(sanitizeHtml('<svg><script>alert(1)</script></svg><math><mi>x</mi></math>')).toBe('')
    expect(sanitizeHtml('<form action="javascript:x"><button formaction=x>b</button></form>')).toBe('')
    expect(sanitizeHtml('<!-- <script>x</script> -->a<![CDATA[b]]>')).toBe('a')
    expect(sanitizeHtml('<custom-el data-x="1"><font color=red>t</font></custom-el>')).toBe('t')
  })

  it('escapes text and attribute values so nothing can break out', () => {
    expect(sanitizeHtml('<p title="&quot;><script>x</script>">a &lt;b&gt;</p>')).toBe(
      '<p title="&quot;&gt;&lt;script&gt;x&lt;/script&gt;">a &lt;b&gt;</p>',
    )
    expect(sanitizeHtml('<textarea><img src=x onerror=alert(1)></textarea>')).toBe('')
    expect(
      sanitizeHtml('<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>'),
    ).not.toMatch(/onerror/)
  })

  it('never lets anything live through, for any mix of dangerous pieces', () => {
    const piece = fc.constantFrom(
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '<a href="javascript:alert(1)">x</a>',
      '<a href="java\nscript:alert(1)">x</a>',
      '<svg onload=alert(1)>',
      '<p style="x:expression(alert(1))">',
      '<iframe srcdoc="<script>x</script>">',
      '<scr',
      'ipt>',
      '<',
      '>',
      '"',
      "'",
      '=',
      ' on',
      'error=alert(1) ',
      '<!--',
      '-->',
      '<p>',
      '</p>',
      '<div title="',
      'text',
      '&lt;',
      '&#x6A;',
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const once = sanitizeHtml(pieces.join(''))
        expect(liveParts(once)).toEqual([])
        // Every "<" left opens or closes an allowed element: nothing can be re-read as a new tag.
        for (const m of once.matchAll(/<(\/?)([^\s>/]*)/g)) expect(KEPT).toContain(m[2])
        expect(liveParts(sanitizeHtml(once))).toEqual([])
      }),
      { numRuns: 500 },
    )
  })
})
