import { paths } from '@client/config/paths'
import { rememberForLogin } from '@client/lib/return-to'
import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router-dom'

/**
 * Whatever sends the player to the login page (a 登录 link on 我的 or the home page, a game's bet
 * button, a logout, a lost session), the login goes back to the page the player was on
 * (lib/return-to.ts): the last page before /login is remembered as the player arrives there.
 */
export function useReturnAfterLogin(): void {
  const { pathname, search } = useLocation()
  const previous = useRef<string | null>(null)
  useEffect(() => {
    if (pathname === paths.login) {
      if (previous.current) rememberForLogin(previous.current)
      return
    }
    previous.current = `${pathname}${search}`
  }, [pathname, search])
}
