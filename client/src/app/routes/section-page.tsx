import { PageShell } from '@client/components/page-shell/page-shell'
import { paths } from '@client/config/paths'
import { Link } from 'react-router-dom'
import { useRouteHandle } from '../route-handle'
import './section-page.css'

/**
 * The page of a section whose feature is built separately (wallet, games, agent, content): its
 * title, navigation and what it is for, from the route's handle.
 */
export function SectionPage({ inLayout = false }: { inLayout?: boolean }) {
  const handle = useRouteHandle()
  const title = handle?.title ?? ''
  return (
    <PageShell title={title} back={!inLayout} fallback={handle?.back}>
      <section className="section-page">
        <h2 className="section-page__heading">{title}</h2>
        <p className="section-page__description">{handle?.description}</p>
        {inLayout ? null : (
          <Link className="section-page__link" to={paths.home}>
            返回首页
          </Link>
        )}
      </section>
    </PageShell>
  )
}

/** For the tab pages: no back arrow, the tab bar is the navigation. */
export function TabSectionPage() {
  return <SectionPage inLayout />
}
