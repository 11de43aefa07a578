import Dialog from 'antd-mobile/es/components/dialog'
import type { ReactNode } from 'react'

/** A link out of the app: a new tab that gets no handle on this one. */
export function ExternalLink({
  href,
  children,
  className,
}: {
  href: string
  children: ReactNode
  className?: string
}) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {children}
    </a>
  )
}

/**
 * When the browser blocked a new tab opened without a tap (lib/chat-link.ts `onBlocked`): the link
 * offered in a dialog, for the player to tap; the app's own tab stays where it is.
 */
export function offerExternalLink(href: string, title: string, linkText: string): void {
  Dialog.alert({
    title,
    content: <ExternalLink href={href}>{linkText}</ExternalLink>,
    confirmText: '关闭',
  })
}
