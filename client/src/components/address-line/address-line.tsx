import { copyText } from '@client/lib/copy'
import { useState } from 'react'
import { QrCode } from '../qr-code/qr-code'
import './address-line.css'

export interface AddressLineProps {
  address: string
  /** What the address is, for the buttons' and the code's names: 收款地址. */
  label: string
}

/**
 * An address the player sends money to, never to be retyped: the whole address in monospace,
 * wrapped on purpose where it does not fit (the `addr-wrap` class of styles/global.css), a copy
 * button, and its QR code on demand.
 */
export function AddressLine({ address, label }: AddressLineProps) {
  const [qrOpen, setQrOpen] = useState(false)
  return (
    <div className="address-line" data-testid="address-line">
      <span className="addr-wrap address-line__text">{address}</span>
      <span className="address-line__actions">
        <button
          type="button"
          className="text-button"
          aria-label={`复制${label}`}
          onClick={() => void copyText(address)}
        >
          复制
        </button>
        <button
          type="button"
          className="text-button"
          aria-expanded={qrOpen}
          aria-label={`${label}二维码`}
          onClick={() => setQrOpen((open) => !open)}
        >
          {qrOpen ? '收起二维码' : '二维码'}
        </button>
      </span>
      {qrOpen ? <QrCode text={address} label={`${label}二维码`} /> : null}
    </div>
  )
}

/**
 * An address to check by eye (a confirmation before binding it): monospace in groups of four,
 * wrapped only between groups, never at an arbitrary character.
 */
export function AddressGroups({ address }: { address: string }) {
  const groups = address.match(/.{1,4}/g) ?? []
  return (
    <span className="address-groups">
      {groups.map((group, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the groups of one fixed address, in order
        <span key={i} className="num">
          {group}
          {i < groups.length - 1 ? ' ' : ''}
        </span>
      ))}
    </span>
  )
}
