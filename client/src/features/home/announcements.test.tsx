// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { untilShown } from '../../test-support/until'

const answer = {
  list: [{ id: 1, title: '维护通知', content: '周二例行维护', pinned: true, published_at: 1 }],
}
const calls: { quiet: boolean }[] = []

vi.mock('@client/lib/http', () => ({
  callRoute: (_route: unknown, _read: unknown, _input: unknown, options?: { quiet?: boolean }) => {
    calls.push({ quiet: options?.quiet === true })
    return Promise.resolve(answer)
  },
}))

/** Fresh modules per test: SWR keeps its cache (and its preloads) at module level. */
async function load() {
  vi.resetModules()
  const request = await import('./announcements-request')
  const { Announcements } = await import('./announcements')
  return { ...request, Announcements }
}

beforeEach(() => {
  calls.length = 0
})

afterEach(cleanup)

describe('takeAnnouncements', () => {
  it('on /home, the line renders from the request made as the app started, with no second one', async () => {
    const { takeAnnouncements, Announcements } = await load()
    takeAnnouncements('/home')
    render(<Announcements />)
    await untilShown('维护通知：周二例行维护')
    expect(screen.getByText('维护通知：周二例行维护')).toBeTruthy()
    expect(calls).toEqual([{ quiet: false }])
  })

  it('on another route, the answer waits quietly in the cache and the home page shows it at once', async () => {
    const { takeAnnouncements, Announcements } = await load()
    takeAnnouncements('/mine')
    expect(calls).toEqual([{ quiet: true }])
    // The answer is in (a macrotask runs after every pending promise callback).
    await new Promise((resolve) => setImmediate(resolve))
    render(<Announcements />)
    // At once, before the home page's own request (SWR asks again) has been answered.
    expect(screen.getByText('维护通知：周二例行维护')).toBeTruthy()
  })
})
