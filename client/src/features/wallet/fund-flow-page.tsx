import { DateTimeText } from '@client/components/date-time-text/date-time-text'
import { NumText } from '@client/components/num-text/num-text'
import { PageShell } from '@client/components/page-shell/page-shell'
import { PagedListView } from '@client/components/paged-list/paged-list'
import { RequireLogin } from '@client/components/require-login/require-login'
import { paths } from '@client/config/paths'
import { useShownText } from '@client/lib/hide-amount'
import { callApi } from '@client/lib/http'
import { usePagedList } from '@client/lib/use-paged-list'
import {
  CURRENCIES,
  FUND_FLOW_TYPE_LABEL,
  FUND_FLOW_TYPES,
  type FundFlowType,
  fundFlow,
  fundFlowTypeSchema,
  type WalletCurrency,
} from '@shared/contract/wallet'
import { useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { AmountText } from './amount-text'
import { ALL_DATES, type DateFilter } from './date-range-filter'
import { type ChoiceFilter, choice, FilterBar } from './filter-bar'
import { refText } from './fund-flow-text'
import './wallet.css'

/** The fund flow (the ledger): every balance change, newest first; `?type=` picks a type to start with. */
export function FundFlowPage() {
  return (
    <PageShell title="资金明细" fallback={paths.mine}>
      <RequireLogin>
        <FundFlow />
      </RequireLogin>
    </PageShell>
  )
}

function FundFlow() {
  const [params] = useSearchParams()
  const initialType = fundFlowTypeSchema.safeParse(params.get('type'))
  const [type, setType] = useState<FundFlowType | null>(initialType.success ? initialType.data : null)
  const [currency, setCurrency] = useState<WalletCurrency | null>(null)
  const [dates, setDates] = useState<DateFilter>(ALL_DATES)
  const query = { ...dates.range, ...(type ? { type } : {}), ...(currency ? { currency } : {}) }
  const list = usePagedList(
    query,
    (page) => callApi(fundFlow, { query: { ...query, ...page } }),
    (row) => row.id,
  )

  const typeFilter: ChoiceFilter<FundFlowType> = {
    key: 'type',
    title: '全部类型',
    options: FUND_FLOW_TYPES.map((value) => ({ value, label: FUND_FLOW_TYPE_LABEL[value] })),
    value: type,
    onChange: setType,
  }
  const currencyFilter: ChoiceFilter<WalletCurrency> = {
    key: 'currency',
    title: '全部币种',
    options: CURRENCIES.map((value) => ({ value, label: value })),
    value: currency,
    onChange: setCurrency,
  }

  const shownText = useShownText()

  return (
    <>
      <FilterBar choices={[choice(typeFilter), choice(currencyFilter)]} dates={dates} onDates={setDates} />
      <PagedListView
        list={list}
        label="资金明细"
        empty="暂无资金记录"
        timeZoneNote
        renderItem={(row) => {
          const ref = refText(row.ref)
          return (
            <article className="wallet-record" data-testid="fund-flow-row" data-type={row.type}>
              <div className="wallet-record__row">
                <span className="wallet-record__title">{row.type_label}</span>
                <AmountText value={row.amount} unit={row.currency} signed />
              </div>
              <div className="wallet-record__row wallet-meta">
                <DateTimeText ms={row.created_at} />
                <span>
                  余额 <AmountText value={row.balance_after} unit={row.currency} />
                </span>
              </div>
              {row.memo || ref ? (
                <div className="wallet-record__row wallet-meta">
                  <span data-testid="fund-flow-memo">
                    <NumText text={shownText(row.memo)} />
                  </span>
                  {ref ? <span className="num">{ref}</span> : null}
                </div>
              ) : null}
            </article>
          )
        }}
      />
    </>
  )
}
