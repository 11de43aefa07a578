import DotLoading from 'antd-mobile/es/components/dot-loading'
import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll'
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh'
import type { ReactNode } from 'react'
import { TimeZoneNote } from '../../components/time-zone-note/time-zone-note'
import type { PagedList } from './use-paged-list'

export interface PagedListViewProps<T> {
  list: PagedList<T>
  /** What an empty list says (after filters). */
  empty: string
  label: string
  renderItem: (item: T) => ReactNode
  itemKey: (item: T) => string | number
}

/** A wallet list: pull down to refresh, more rows as the player nears the end, a word when empty. */
export function PagedListView<T>({ list, empty, label, renderItem, itemKey }: PagedListViewProps<T>) {
  return (
    <PullToRefresh onRefresh={list.refresh}>
      <TimeZoneNote />
      <ul className="wallet-list" aria-label={label} aria-busy={!list.loaded}>
        {list.items.map((item) => (
          <li key={itemKey(item)} className="wallet-list__item">
            {renderItem(item)}
          </li>
        ))}
      </ul>
      {!list.loaded && !list.failed ? (
        <p className="wallet-list__note">
          加载中
          <DotLoading />
        </p>
      ) : null}
      {list.loaded && list.items.length === 0 ? <p className="wallet-list__note">{empty}</p> : null}
      {!list.loaded && list.failed ? (
        <p className="wallet-list__note">
          加载失败，
          <button type="button" className="wallet-link" onClick={() => void list.refresh()}>
            重试
          </button>
        </p>
      ) : null}
      {list.loaded && list.items.length > 0 ? (
        <InfiniteScroll loadMore={list.loadMore} hasMore={list.hasMore}>
          {(hasMore, failed, retry) =>
            failed ? (
              <span>
                加载失败，
                <button type="button" className="wallet-link" onClick={retry}>
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
      ) : null}
    </PullToRefresh>
  )
}
