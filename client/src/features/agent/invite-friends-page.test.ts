import { describe, expect, it } from 'vitest'
import { shareLinks } from './invite-friends-page'

describe('shareLinks', () => {
  it('shares the invite link and code through the messenger app, with its web share page as fallback', () => {
    const link = 'https://game.example/login?isreg=1&invite_code=DEMO88'
    const { appUrl, webUrl } = shareLinks(link, 'DEMO88')
    expect(appUrl.startsWith('tg://msg_url?')).toBe(true)
    expect(webUrl.startsWith('https://t.me/share/url?')).toBe(true)
    const params = new URLSearchParams(webUrl.split('?')[1])
    expect(params.get('url')).toBe(link)
    expect(params.get('text')).toContain('DEMO88')
    expect(new URLSearchParams(appUrl.split('?')[1]).get('url')).toBe(link)
  })
})
