import { classifyFailure, type FailureFacts } from '@client/lib/endpoint-status'
import { MSG } from '@shared/messages'
import Button from 'antd-mobile/es/components/button'
import Skeleton from 'antd-mobile/es/components/skeleton'
import type { ReactNode } from 'react'

/**
 * Where a read stands, for the section that shows it (lib/endpoint-status.ts): `missing` hides it or
 * explains, `refused` and `unreachable` say so with a retry. Here rather than in endpoint-status.ts,
 * which the HTTP client and so the first screen's entry need: only pages read this.
 */
export type Availability = 'loading' | 'ready' | 'missing' | 'refused' | 'unreachable'

export function availabilityOf(data: unknown, error: FailureFacts | undefined | null): Availability {
  if (data !== undefined) return 'ready'
  if (!error) return 'loading'
  const failure = classifyFailure(error)
  if (failure === 'missing') return 'missing'
  if (failure === 'refused') return 'refused'
  return failure === 'unreachable' ? 'unreachable' : 'loading'
}

/** What a page says in place of a section whose endpoint the server does not offer. */
export const UNSUPPORTED_NOTE = `${MSG.unsupported}。`

/**
 * A section that shows what one read gave (lib/endpoint-status.ts): its content once the data is
 * there; a skeleton meanwhile; where the server does not offer the endpoint, nothing (`missing:
 * 'hide'`) or a plain note (`'explain'`, the default: 当前服务暂不支持此功能。 or the page's own
 * words); where the call failed otherwise, a word and 重试.
 */
export function ReadState({
  availability,
  onRetry,
  missing = 'explain',
  note = UNSUPPORTED_NOTE,
  loading,
  children,
}: {
  availability: Availability
  onRetry?: () => void
  missing?: 'explain' | 'hide'
  note?: ReactNode
  loading?: ReactNode
  children: ReactNode
}) {
  if (availability === 'ready') return children
  if (availability === 'loading')
    return loading === undefined ? <Skeleton.Paragraph lineCount={4} animated /> : loading
  if (availability === 'missing')
    return missing === 'hide' ? null : (
      <p className="read-state" data-testid="endpoint-missing">
        {note}
      </p>
    )
  return (
    <div className="read-state" data-testid="read-failed">
      <p>{availability === 'unreachable' ? MSG.network : '加载失败'}</p>
      {onRetry ? (
        <Button size="small" onClick={onRetry}>
          重试
        </Button>
      ) : null}
    </div>
  )
}
