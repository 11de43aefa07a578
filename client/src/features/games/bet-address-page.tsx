import { AddressLine } from '@client/components/address-line/address-line'
import { availabilityOf, PageShell, ReadState } from '@client/components/page-shell/page-shell'
import { RequireLogin } from '@client/components/require-login/require-login'
import { paths } from '@client/config/paths'
import { truncate } from '@client/lib/format'
import { callApi } from '@client/lib/http'
import { showToast } from '@client/lib/toast'
import { useApi } from '@client/lib/use-api'
import { useBusy } from '@client/lib/use-busy'
import type { DataOf } from '@shared/contract/endpoint'
import { betAddresses, bindBetAddress, deleteBetAddress, updateBetAddress } from '@shared/contract/games'
import Button from 'antd-mobile/es/components/button'
import Dialog from 'antd-mobile/es/components/dialog'
import Empty from 'antd-mobile/es/components/empty'
import Input from 'antd-mobile/es/components/input'
import List from 'antd-mobile/es/components/list'
import Popup from 'antd-mobile/es/components/popup'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useState } from 'react'
import { Link } from 'react-router-dom'
import './games.css'

type BetAddress = DataOf<typeof betAddresses>['list'][number]

/** `/bet-address`: the wallets the player sends transfer bets from, and where to send them. */
export function BetAddressPage() {
  return (
    <PageShell title="投注地址" fallback={paths.mine}>
      <RequireLogin>
        <BetAddresses />
      </RequireLogin>
    </PageShell>
  )
}

interface Editing {
  id: number | null
  address: string
  label: string
}

function BetAddresses() {
  const { data, error, mutate } = useApi(betAddresses, undefined)
  const [editing, setEditing] = useState<Editing | null>(null)
  const [saving, run] = useBusy()

  // On a failure the HTTP client shows why and the form stays open.
  const save = () =>
    run(async () => {
      if (!editing) return
      if (editing.id === null) {
        await callApi(bindBetAddress, { body: { address: editing.address.trim(), label: editing.label } })
        showToast('绑定成功')
      } else {
        await callApi(updateBetAddress, {
          body: { id: editing.id, address: editing.address.trim(), label: editing.label },
        })
        showToast('修改成功')
      }
      setEditing(null)
      await mutate()
    })

  const remove = (a: BetAddress) =>
    run(async () => {
      const ok = await Dialog.confirm({ content: `确定删除投注地址 ${truncate(a.address, 6, 6)}？` })
      if (!ok) return
      await callApi(deleteBetAddress, { body: { id: a.id } })
      showToast('已删除')
      await mutate()
    })

  if (!data)
    return (
      <ReadState
        availability={availabilityOf(data, error)}
        onRetry={() => void mutate()}
        note="当前服务暂不支持转账投注。"
        loading={<Skeleton.Paragraph lineCount={5} animated />}
      >
        {null}
      </ReadState>
    )
  return (
    <>
      <List header="我的投注地址" data-testid="bet-addresses">
        {data.list.map((a) => (
          <List.Item
            key={a.id}
            description={a.label || '无备注'}
            extra={
              <span className="games-nav-links">
                <button
                  type="button"
                  className="games-quick"
                  onClick={() => setEditing({ id: a.id, address: a.address, label: a.label })}
                >
                  修改
                </button>
                <button
                  type="button"
                  className="games-quick"
                  disabled={saving}
                  onClick={() => void remove(a)}
                >
                  删除
                </button>
              </span>
            }
          >
            <span className="games-award">{truncate(a.address, 8, 6)}</span>
          </List.Item>
        ))}
      </List>
      {data.list.length === 0 ? <Empty description="还没有绑定投注地址" /> : null}
      <div className="games-slip">
        <Button block color="primary" onClick={() => setEditing({ id: null, address: '', label: '' })}>
          绑定新地址
        </Button>
        <Link to={paths.testBet}>试玩转账投注</Link>
      </div>
      <List header="收款地址（从已绑定地址转账即投注）">
        {data.receiving.map((r) => (
          <List.Item key={r.address} description={r.rule}>
            <AddressLine address={r.address} label="收款地址" />
          </List.Item>
        ))}
      </List>
      <Popup visible={editing !== null} onMaskClick={() => setEditing(null)} bodyClassName="games-confirm">
        <h3>{editing?.id === null ? '绑定投注地址' : '修改投注地址'}</h3>
        <List>
          <List.Item title="地址">
            <Input
              placeholder="TRON 地址（T 开头）"
              value={editing?.address ?? ''}
              onChange={(address) => setEditing((e) => (e ? { ...e, address } : e))}
            />
          </List.Item>
          <List.Item title="备注">
            <Input
              placeholder="选填，最多20个字符"
              maxLength={20}
              value={editing?.label ?? ''}
              onChange={(label) => setEditing((e) => (e ? { ...e, label } : e))}
            />
          </List.Item>
        </List>
        <div className="games-confirm__actions">
          <Button onClick={() => setEditing(null)}>取消</Button>
          <Button color="primary" loading={saving} onClick={save}>
            保存
          </Button>
        </div>
      </Popup>
    </>
  )
}
