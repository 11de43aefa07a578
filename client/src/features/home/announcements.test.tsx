// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { untilShown } from '../../test-support/until'

const answer: {
  list: { id: number; title: string; content: string; pinned: boolean; published_at: number }[]
} = {
  list: [{ id: 1, title: '维护通知', content: '周二例行维护', pinned: true, published_at: 1 }],
}
const calls: { quiet: boolean }[] = []

vi.mock('@client/lib/http', () => ({
  callRoute: (_route: unknown, _read: unknown, _input: unknown, options?: { quiet?: boolean }) => {
    calls.push({ quiet: options?.quiet === true })
    return Promise.resolve(structuredClone(answer))
  },
}))

/** The push channel's listeners, by event type: a test sends an event by calling them. */
const liveListeners = new Map<string, () => void>()
vi.mock('@client/lib/live', () => ({
  liveStream: {
    on: (type: string, listener: () => void) => {
      liveListeners.set(type, listener)
      return () => liveListeners.delete(type)
    },
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
    render(
      <MemoryRouter>
        <Announcements />
      </MemoryRouter>,
    )
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
    render(
      <MemoryRouter>
        <Announcements />
      </MemoryRouter>,
    )
    // At once, before the home page's own request (SWR asks again) has been answered.
    expect(screen.getByText('维护通知：周二例行维护')).toBeTruthy()
  })
})

describe('the line on the push channel', () => {
  it('is read again when a new announcement is published, and shows it', async () => {
    const { takeAnnouncements, Announcements } = await load()
    takeAnnouncements('/home')
    render(
      <MemoryRouter>
        <Announcements />
      </MemoryRouter>,
    )
    await untilShown('维护通知：周二例行维护')
    expect(calls).toHaveLength(1)
    answer.list = [
      { id: 2, title: '新活动', content: '充值送彩金', pinned: false, published_at: 2 },
      ...answer.list,
    ]
    // The line listens once the channel's module has loaded (a dynamic import).
    while (!liveListeners.has('announcement')) await new Promise((resolve) => setImmediate(resolve))
    await act(async () => liveListeners.get('announcement')?.())
    expect(calls).toHaveLength(2)
    await untilShown('新活动：充值送彩金　　维护通知：周二例行维护')
  })
})
