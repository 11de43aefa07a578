import { useEffect } from 'react'
import { isRouteErrorResponse, useRouteError } from 'react-router-dom'
import { PageLoading } from '../components/page-loading/page-loading'
import { StatusPage } from '../components/status-page/status-page'
import { paths } from '../config/paths'
import { canReload, isChunkLoadError, reloadNow } from '../lib/preload-recovery'
import { NotFoundPage } from './routes/not-found-page'

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
 * Every route's error element. A page whose code failed to load gets one reload; if that does
 * not help, or the page itself threw, the user sees what happened and a way on. Never blank.
 */
export function RouteError() {
  const error = useRouteError()
  const chunkFailed = isChunkLoadError(error)

  useEffect(() => {
    if (!chunkFailed) console.error('page failed', error)
  }, [chunkFailed, error])

  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />
  if (chunkFailed) return <ChunkErrorPage />
  return (
    <StatusPage
      title="页面出错了"
      description="页面遇到了问题，请重新加载或返回首页。"
      actions={<RecoveryActions />}
    />
  )
}
