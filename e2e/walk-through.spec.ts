import { announcementRoute } from '@shared/contract/first-screen'
import { countCalls } from './support/emu'
import { expect, openLoggedIn, test } from './support/test'

test.describe('the announcements call', () => {
  for (const route of ['/home', '/mine']) {
    test(`carries the token of a logged-in player opening ${route}`, async ({ page, scope }) => {
      await openLoggedIn(page, route)
      await page.waitForLoadState('networkidle')
      const path = announcementRoute.path
      // The app's calls ask for JSON; index.html's preload (which can carry no token) does not.
      const appWithToken = await countCalls(scope, { path, header: ['token', 'accept=application/json'] })
      const appWithout = await countCalls(scope, { path, header: ['!token', 'accept=application/json'] })
      expect({ appWithToken: appWithToken >= 1, appWithout }).toEqual({ appWithToken: true, appWithout: 0 })
    })
  }
})
