import Button from 'antd-mobile/es/components/button'
import Skeleton from 'antd-mobile/es/components/skeleton'
import type { ReactNode } from 'react'
import type { Availability } from './use-protection-read'

/** What a protection section shows until its data is there: a skeleton, a retry, or a plain note. */
export function SectionState({
  availability,
  onRetry,
  children,
}: {
  availability: Availability
  onRetry: () => void
  children: ReactNode
}) {
  if (availability === 'ready') return children
  if (availability === 'loading') return <Skeleton.Paragraph lineCount={4} animated />
  if (availability === 'missing')
    return (
      <p className="protection-note" data-testid="protection-missing">
        当前服务暂不支持此功能。
      </p>
    )
  return (
    <div className="protection-note">
      <p>网络连接错误，请检查网络设置</p>
      <Button size="small" onClick={onRetry}>
        重试
      </Button>
    </div>
  )
}
