// @vitest-environment happy-dom

import { paths } from '@client/config/paths'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom'
import { afterEach, describe, expect, it } from 'vitest'
import { AppLayout } from './app-layout'

afterEach(cleanup)

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>
}

function setup(initial: string) {
  const router = createMemoryRouter(
    [
      {
        element: <AppLayout />,
        children: [paths.home, paths.activity, paths.service, paths.mine].map((path) => ({
          path,
          element: <Where />,
        })),
      },
      { path: paths.topUp, element: <Where /> },
    ],
    { initialEntries: [initial] },
  )
  render(<RouterProvider router={router} />)
  return router
}

const activeTitle = () => document.querySelector('.adm-tab-bar-item-active')?.textContent

describe('MainTabBar', () => {
  it('highlights the tab of a deep link and moves with clicks, back and forward', async () => {
    const router = setup(paths.mine)
    expect(activeTitle()).toBe('我的')
    await act(async () => {
      fireEvent.click(screen.getByText('活动'))
    })
    expect(screen.getByTestId('where').textContent).toBe(paths.activity)
    expect(activeTitle()).toBe('活动')
    await act(() => router.navigate(-1))
    expect(activeTitle()).toBe('我的')
    await act(() => router.navigate(1))
    expect(activeTitle()).toBe('活动')
  })

  it('draws an active and an inactive icon per tab, and an 84 × 44 top-up badge that leaves the layout', async () => {
    setup(paths.home)
    const icons = [...document.querySelectorAll('.adm-tab-bar-item svg')]
    expect(icons.map((icon) => icon.getAttribute('data-active'))).toEqual([
      'true',
      'false',
      'false',
      'false',
      'false',
    ])
    const topUp = screen.getByRole('img', { name: '充值' })
    expect(topUp.getAttribute('width')).toBe('84')
    expect(topUp.getAttribute('height')).toBe('44')
    await act(async () => {
      fireEvent.click(topUp)
    })
    expect(screen.getByTestId('where').textContent).toBe(paths.topUp)
    expect(document.querySelector('.adm-tab-bar')).toBeNull()
  })
})
