import { paths } from '@client/config/paths'

/** The five tabs in order; the active index counts from 0. Top-up leads out of the layout. */
export const TAB_PATHS = [paths.home, paths.activity, paths.topUp, paths.service, paths.mine] as const
export const TOP_UP_TAB = TAB_PATHS.indexOf(paths.topUp)

/** The tab a URL belongs to, so back, forward and deep links move the highlight; 0 when none. */
export function tabIndexForPath(pathname: string): number {
  const clean = pathname.replace(/\/+$/, '') || '/'
  const index = TAB_PATHS.findIndex((path) => clean === path || clean.startsWith(`${path}/`))
  return index === -1 ? 0 : index
}
