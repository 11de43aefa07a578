import { useBusy } from '@client/lib/use-busy'
import type { ItemOf, Paged, PagedList } from '@client/lib/use-paged-list'
import Button from 'antd-mobile/es/components/button'
import DotLoading from 'antd-mobile/es/components/dot-loading'
import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll'
import List from 'antd-mobile/es/components/list'
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh'
import { Fragment, type ReactNode, useState } from 'react'
import { UNSUPPORTED_NOTE } from '../page-shell/page-shell'
import { TimeZoneNote } from '../time-zone-note/time-zone-note'
import './paged-list.css'

export interface PagedListViewProps<P extends Paged> {
  list: PagedList<P>
  /** The list's accessible name. */
  label: string
  /** What an empty list says (after filters): a text, or an element such as antd's Empty. */
  empty: ReactNode
  renderItem: (item: ItemOf<P>) => ReactNode
  /**
   * `cards` (the default): a plain list of cards, each row in its own `<li>`.
   * `rows`: antd's List, `renderItem` giving a List.Item; `header` and `className` go on the List.
   */
  variant?: 'cards' | 'rows'
  header?: ReactNode
  className?: string
  testId?: string
  /**
   * `scroll` (the default): the next page loads as the player nears the end.
   * `button`: a 加载更多 button under the list, for lists that sit above other content.
   */
  more?: 'scroll' | 'button'
  /** Pull down to start again from the first page (on by default). */
  pullToRefresh?: boolean
  /** Rows show times: say which zone they are in (lib/date-time.ts). */
  timeZoneNote?: boolean
}

/**
 * The one view of a paged list (docs/client.md): its rows, a word while the first page loads, when
 * it failed (with a retry) and when it is empty, and the next page on scroll or on a button.
 */
export function PagedListView<P extends Paged>({
  list,
  label,
  empty,
  renderItem,
  variant = 'cards',
  header,
  className,
  testId,
  more = 'scroll',
  pullToRefresh = true,
  timeZoneNote = false,
}: PagedListViewProps<P>) {
  const rows =
    variant === 'rows' ? (
      list.items.length > 0 || header ? (
        <List
          className={className}
          header={header}
          aria-label={label}
          aria-busy={!list.loaded}
          data-testid={testId}
        >
          {list.items.map((item) => (
            <Fragment key={list.keyOf(item)}>{renderItem(item)}</Fragment>
          ))}
        </List>
      ) : null
    ) : (
      <ul
        className={`paged-list${className ? ` ${className}` : ''}`}
        aria-label={label}
        aria-busy={!list.loaded}
        data-testid={testId}
      >
        {list.items.map((item) => (
          <li key={list.keyOf(item)} className="paged-list__item">
            {renderItem(item)}
          </li>
        ))}
      </ul>
    )

  const body = (
    <>
      {timeZoneNote ? <TimeZoneNote /> : null}
      {rows}
      {!list.loaded && !list.failed ? (
        <p className="paged-list__note">
          加载中
          <DotLoading />
        </p>
      ) : null}
      {list.loaded && list.items.length === 0 ? (
        typeof empty === 'string' ? (
          <p className="paged-list__note">{empty}</p>
        ) : (
          empty
        )
      ) : null}
      {!list.loaded && list.missing ? (
        <p className="paged-list__note" data-testid="endpoint-missing">
          {UNSUPPORTED_NOTE}
        </p>
      ) : null}
      {!list.loaded && list.failed && !list.missing ? (
        <p className="paged-list__note">
          加载失败，
          <button type="button" className="text-button" onClick={() => void list.refresh()}>
            重试
          </button>
        </p>
      ) : null}
      {list.loaded && list.items.length > 0 ? (
        more === 'button' ? (
          <MoreButton list={list} />
        ) : (
          <InfiniteScroll loadMore={list.loadMore} hasMore={list.hasMore}>
            {(hasMore, failed, retry) =>
              failed ? (
                <span>
                  加载失败，
                  <button type="button" className="text-button" onClick={retry}>
                    重试
                  </button>
                </span>
              ) : hasMore ? (
                <span>
                  加载中
                  <DotLoading />
                </span>
              ) : (
                <span>没有更多了</span>
              )
            }
          </InfiniteScroll>
        )
      ) : null}
    </>
  )
  return pullToRefresh ? <PullToRefresh onRefresh={list.refresh}>{body}</PullToRefresh> : body
}

/** 加载更多 while there is more: one page a tap, a second tap while it loads does nothing. */
function MoreButton<P extends Paged>({ list }: { list: PagedList<P> }) {
  const [busy, run] = useBusy()
  const [failed, setFailed] = useState(false)
  if (!list.hasMore) return null
  const load = () =>
    run(async () => {
      setFailed(false)
      try {
        await list.loadMore()
      } catch {
        setFailed(true)
      }
    })
  return (
    <Button className="paged-list__more" size="small" loading={busy} onClick={() => void load()}>
      {failed ? '加载失败，重试' : '加载更多'}
    </Button>
  )
}
