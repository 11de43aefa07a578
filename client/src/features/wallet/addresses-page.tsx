import { AddressGroups } from '@client/components/address-line/address-line'
import { DateTimeText } from '@client/components/date-time-text/date-time-text'
import { PageShell } from '@client/components/page-shell/page-shell'
import { RequireLogin } from '@client/components/require-login/require-login'
import { TimeZoneNote } from '@client/components/time-zone-note/time-zone-note'
import { paths } from '@client/config/paths'
import { isEndpointMissing } from '@client/lib/endpoint-status'
import { ApiError, callApi } from '@client/lib/http'
import { returnFrom } from '@client/lib/return-to'
import { showToast } from '@client/lib/toast'
import { useApi } from '@client/lib/use-api'
import { useBusy } from '@client/lib/use-busy'
import {
  bindWallet,
  deleteWallet,
  listWallets,
  setDefaultWallet,
  tronAddressField,
  type WalletAddress,
  walletLabelField,
} from '@shared/contract/wallet'
import { tronAddressProblem } from '@shared/tron'
import Button from 'antd-mobile/es/components/button'
import Dialog from 'antd-mobile/es/components/dialog'
import Input from 'antd-mobile/es/components/input'
import Switch from 'antd-mobile/es/components/switch'
import { useState } from 'react'
import { useNavigate, useSearchParams } from 'react-router-dom'
import { FormError } from './form-error'
import { PayPasswordSheet } from './pay-password-sheet'
import './wallet.css'

export function AddressesPage() {
  return (
    <PageShell title="钱包地址" fallback={paths.mine}>
      <RequireLogin>
        <Addresses />
      </RequireLogin>
    </PageShell>
  )
}

type WalletList = { list: WalletAddress[]; max_count: number }

function Addresses() {
  const { data, error, mutate } = useApi(listWallets, undefined)
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const back = returnFrom(params)

  const update = (next: WalletList) => void mutate(next, { revalidate: false })

  // One change at a time: a second tap while one is asked or sent does nothing.
  const [changing, run] = useBusy()

  const makeDefault = (wallet: WalletAddress) =>
    run(async () => {
      const ok = await Dialog.confirm({
        title: '设为默认地址',
        content: `将「${wallet.label}」设为默认提现地址？`,
        confirmText: '设为默认',
        cancelText: '取消',
      })
      if (!ok) return
      update(await callApi(setDefaultWallet, { body: { id: wallet.id } }))
      showToast('已设为默认地址', 'success')
    })

  const remove = (wallet: WalletAddress) =>
    run(async () => {
      const ok = await Dialog.confirm({
        title: '删除地址',
        content: (
          <div className="wallet-dialog">
            <p>确定删除「{wallet.label}」？</p>
            <p className="wallet-address">{wallet.address}</p>
            {wallet.is_default ? <p>删除后，最新绑定的地址将成为默认地址。</p> : null}
          </div>
        ),
        confirmText: '删除',
        cancelText: '取消',
      })
      if (!ok) return
      update(await callApi(deleteWallet, { body: { id: wallet.id } }))
      showToast('地址已删除', 'success')
    })

  if (isEndpointMissing(error) && !data) {
    return (
      <p className="wallet-note" data-testid="endpoint-missing">
        当前服务暂不支持管理提现地址。
      </p>
    )
  }

  if (!data) {
    return (
      <p className="wallet-note">
        {error ? (
          <>
            地址加载失败，
            <button type="button" className="text-button" onClick={() => void mutate()}>
              重试
            </button>
          </>
        ) : (
          '加载中…'
        )}
      </p>
    )
  }

  const full = data.list.length >= data.max_count
  return (
    <div className="wallet-page">
      <div className="wallet-card__row">
        <h2 className="wallet-section-title">提现地址（USDT-TRC20）</h2>
        <span className="wallet-count" data-testid="address-count">
          已绑定 {data.list.length}/{data.max_count}
        </span>
      </div>
      {data.list.length === 0 ? <p className="wallet-note">还没有绑定地址，请在下方添加。</p> : null}
      <ul className="wallet-list" aria-label="已绑定地址">
        {data.list.map((wallet) => (
          <li key={wallet.id} className="wallet-list__item wallet-address-item" data-testid="address-item">
            <div className="wallet-card__row">
              <strong>{wallet.label}</strong>
              {wallet.is_default ? <span className="wallet-chip wallet-chip--on">默认</span> : null}
            </div>
            <p className="wallet-address">{wallet.address}</p>
            <div className="wallet-card__row">
              <span className="wallet-meta">
                {wallet.network} · <DateTimeText ms={wallet.created_at} />
              </span>
              <span className="wallet-row-actions">
                {wallet.is_default ? null : (
                  <button
                    type="button"
                    className="text-button"
                    disabled={changing}
                    onClick={() => void makeDefault(wallet)}
                  >
                    设为默认
                  </button>
                )}
                <button
                  type="button"
                  className="text-button text-button--danger"
                  disabled={changing}
                  onClick={() => void remove(wallet)}
                >
                  删除
                </button>
              </span>
            </div>
          </li>
        ))}
      </ul>
      {data.list.length > 0 ? <TimeZoneNote /> : null}
      {full ? (
        <p className="wallet-note">最多可绑定 {data.max_count} 个地址，如需添加请先删除一个。</p>
      ) : (
        <BindForm
          bound={data.list.map((wallet) => wallet.address)}
          onBound={(next) => {
            update(next)
            if (back) navigate(back, { replace: true })
          }}
        />
      )}
    </div>
  )
}

/** What the server answers for an address the player already bound; said before any password is asked. */
export const DUPLICATE_ADDRESS = '该地址已绑定'

function BindForm({
  bound,
  onBound,
}: {
  /** The addresses already bound: binding one again is refused here, not after the payment password. */
  bound: readonly string[]
  onBound: (next: WalletList) => void
}) {
  const first = bound.length === 0
  const [address, setAddress] = useState('')
  const [label, setLabel] = useState('')
  const [makeDefault, setMakeDefault] = useState(false)
  const [problem, setProblem] = useState('')
  const [sheetOpen, setSheetOpen] = useState(false)

  const addressProblem = address.trim() ? tronAddressProblem(address.trim()) : null

  const next = async () => {
    const addressCheck = tronAddressField.safeParse(address)
    const labelCheck = walletLabelField.safeParse(label)
    const found = !address.trim()
      ? '请输入提现地址'
      : !addressCheck.success
        ? (addressCheck.error.issues[0]?.message ?? '地址不正确')
        : bound.includes(address.trim())
          ? DUPLICATE_ADDRESS
          : !labelCheck.success
            ? (labelCheck.error.issues[0]?.message ?? '备注不正确')
            : ''
    setProblem(found)
    if (found) return
    const ok = await Dialog.confirm({
      title: '确认绑定地址',
      content: (
        <div className="wallet-dialog">
          <p>请核对地址，转错地址的资产无法找回：</p>
          <p className="wallet-address">
            <AddressGroups address={address.trim()} />
          </p>
          <p>备注：{label.trim()}</p>
        </div>
      ),
      confirmText: '确认绑定',
      cancelText: '取消',
    })
    if (ok) setSheetOpen(true)
  }

  const submit = async (payPassword: string): Promise<string | null> => {
    try {
      const next = await callApi(bindWallet, {
        body: {
          address: address.trim(),
          label: label.trim(),
          pay_password: payPassword,
          is_default: first || makeDefault ? '1' : '0',
        },
      })
      setSheetOpen(false)
      setAddress('')
      setLabel('')
      setMakeDefault(false)
      showToast('地址已绑定', 'success')
      onBound(next)
      return null
    } catch (err) {
      return err instanceof ApiError ? err.message : '绑定失败，请稍后再试'
    }
  }

  return (
    <section className="wallet-card" aria-label="添加地址">
      <h2 className="wallet-card__title">添加提现地址</h2>
      <div className="wallet-field">
        <span className="wallet-field__label">地址</span>
        <Input
          placeholder="T 开头的 34 位 TRC20 地址"
          value={address}
          onChange={(text) => {
            setAddress(text.replace(/\s/g, ''))
            setProblem('')
          }}
          autoComplete="off"
          aria-label="提现地址"
        />
      </div>
      {addressProblem && address.trim().length >= 34 ? (
        <p className="wallet-error">{addressProblem}</p>
      ) : null}
      <div className="wallet-field">
        <span className="wallet-field__label">备注</span>
        <Input
          placeholder="例如：我的钱包"
          maxLength={20}
          value={label}
          onChange={(text) => {
            setLabel(text)
            setProblem('')
          }}
          aria-label="地址备注"
        />
      </div>
      {first ? (
        <p className="wallet-note">第一个地址自动成为默认地址。</p>
      ) : (
        <div className="wallet-field">
          <span className="wallet-field__label">设为默认</span>
          <Switch checked={makeDefault} onChange={setMakeDefault} aria-label="设为默认地址" />
        </div>
      )}
      <div className="wallet-warning" role="note">
        仅支持 TRC20 网络的 USDT 地址，请仔细核对，地址错误将导致资产无法找回。
      </div>
      <FormError message={problem} />
      <Button block color="primary" size="large" onClick={() => void next()}>
        绑定地址
      </Button>
      <PayPasswordSheet
        visible={sheetOpen}
        title="验证支付密码"
        summary={<p className="wallet-address">{address.trim()}</p>}
        onClose={() => setSheetOpen(false)}
        onSubmit={submit}
      />
    </section>
  )
}
