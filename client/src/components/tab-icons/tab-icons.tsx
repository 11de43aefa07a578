import type { ReactNode } from 'react'
import './tab-icons.css'

/** Tab bar icons, drawn inline: outlined when inactive, filled when active. */

interface IconProps {
  active: boolean
}

function Svg({ active, children }: IconProps & { children: ReactNode }) {
  return (
    <svg
      className={active ? 'tab-icon tab-icon--active' : 'tab-icon'}
      viewBox="0 0 24 24"
      width="24"
      height="24"
      aria-hidden="true"
      data-active={active ? 'true' : 'false'}
    >
      {children}
    </svg>
  )
}

const stroke = {
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinejoin: 'round',
  strokeLinecap: 'round',
} as const

export function HomeIcon({ active }: IconProps) {
  return (
    <Svg active={active}>
      <path
        d="M3 10.5 12 3l9 7.5V20a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z"
        fill={active ? 'currentColor' : 'none'}
        {...stroke}
      />
    </Svg>
  )
}

export function ActivityIcon({ active }: IconProps) {
  return (
    <Svg active={active}>
      <rect x="3" y="8" width="18" height="13" rx="2" fill={active ? 'currentColor' : 'none'} {...stroke} />
      <path d="M12 8v13M3 12h18" {...stroke} stroke={active ? 'var(--app-surface)' : 'currentColor'} />
      <path d="M12 8c-2-4-6-4-6-1.5S9 8 12 8c3 0 6-.5 6-1.5S14 4 12 8z" fill="none" {...stroke} />
    </Svg>
  )
}

export function ServiceIcon({ active }: IconProps) {
  return (
    <Svg active={active}>
      <path d="M4 13v-1a8 8 0 0 1 16 0v1" fill="none" {...stroke} />
      <rect x="3" y="13" width="4" height="6" rx="1.5" fill={active ? 'currentColor' : 'none'} {...stroke} />
      <rect x="17" y="13" width="4" height="6" rx="1.5" fill={active ? 'currentColor' : 'none'} {...stroke} />
      <path d="M19 19c0 1.5-2 2.5-5 2.5" fill="none" {...stroke} />
    </Svg>
  )
}

export function MineIcon({ active }: IconProps) {
  return (
    <Svg active={active}>
      <circle cx="12" cy="8" r="4" fill={active ? 'currentColor' : 'none'} {...stroke} />
      <path d="M4 21c0-4.4 3.6-7 8-7s8 2.6 8 7z" fill={active ? 'currentColor' : 'none'} {...stroke} />
    </Svg>
  )
}

/** The top-up tab: one 84 × 44 px badge with its label drawn in. */
export function TopUpIcon({ active }: IconProps) {
  return (
    <svg
      className="tab-icon-topup"
      viewBox="0 0 84 44"
      width="84"
      height="44"
      role="img"
      aria-label="充值"
      data-active={active ? 'true' : 'false'}
    >
      <defs>
        <linearGradient id="tab-topup-fill" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={active ? '#1e56e0' : '#2f6bff'} />
          <stop offset="1" stopColor="#2fad98" />
        </linearGradient>
      </defs>
      <rect x="1" y="1" width="82" height="42" rx="21" fill="url(#tab-topup-fill)" />
      <circle cx="22" cy="22" r="10" fill="none" stroke="#fff" strokeWidth="2" />
      <path d="M22 16v12M18 20h8M18 24h8" stroke="#fff" strokeWidth="2" strokeLinecap="round" />
      <text x="56" y="27.5" textAnchor="middle" fontSize="14" fontWeight="700" fill="#fff">
        充值
      </text>
    </svg>
  )
}
