import { Component, type ReactNode, useEffect } from 'react'
import { useLocation } from 'react-router-dom'
import { PageLoading } from '../components/page-loading/page-loading'
import { StatusPage } from '../components/status-page/status-page'
import { paths } from '../config/paths'
import { canReload, isChunkLoadError, reloadNow } from '../lib/preload-recovery'

/** What a route shows when its code failed to load: one reload, then a clear message. */
export function ChunkErrorPage() {
  const reloading = canReload()
  useEffect(() => {
    if (reloading) reloadNow()
  }, [reloading])
  if (reloading) return <PageLoading label="正在重新加载" />
  return (
    <StatusPage
      title="页面加载失败"
      description="页面文件未能加载，可能是网络不稳定或应用刚刚更新。请检查网络后重新加载。"
      actions={<RecoveryActions />}
    />
  )
}

function RecoveryActions() {
  return (
    <>
      <button type="button" className="status-page__button" onClick={() => window.location.reload()}>
        重新加载
      </button>
      <a className="status-page__button status-page__button--ghost" href={paths.home}>
        返回首页
      </a>
    </>
  )
}

/**
 * What a route shows when it failed. A page whose code failed to load gets one reload; if that
 * does not help, or the page itself threw, the user sees what happened and a way on. Never blank.
 */
export function RouteError({ error }: { error: unknown }) {
  const chunkFailed = isChunkLoadError(error)

  useEffect(() => {
    if (!chunkFailed) console.error('page failed', error)
  }, [chunkFailed, error])

  if (chunkFailed) return <ChunkErrorPage />
  return (
    <StatusPage
      title="页面出错了"
      description="页面遇到了问题，请重新加载或返回首页。"
      actions={<RecoveryActions />}
    />
  )
}

interface BoundaryProps {
  children: ReactNode
  /** The history entry the error belongs to: another one renders the route again. */
  locationKey: string
}

interface BoundaryState {
  error: { value: unknown } | null
  locationKey: string
}

class RouteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, locationKey: this.props.locationKey }

  static getDerivedStateFromError(value: unknown): Partial<BoundaryState> {
    return { error: { value } }
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.locationKey === state.locationKey ? null : { error: null, locationKey: props.locationKey }
  }

  override render() {
    return this.state.error ? <RouteError error={this.state.error.value} /> : this.props.children
  }
}

/** Every route's error boundary: what the route renders throws, RouteError shows in its place. */
export function RouteBoundary({ children }: { children: ReactNode }) {
  return <RouteErrorBoundary locationKey={useLocation().key}>{children}</RouteErrorBoundary>
}
