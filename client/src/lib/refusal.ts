/**
 * Refusals that matter to the player's protection (docs/player-protection.md): a deposit or loss
 * limit reached, a time-out or self-exclusion running. They are not a two-second toast: the HTTP
 * client shows them in a dialog (components/refusal-dialog) with when the limit resets or the
 * pause ends, and what the player can do now. The server says which refusal it is only in its
 * message, so the message is read here; refusal.test.ts holds these patterns to the emulator's
 * messages.
 */

export type RefusalKind = 'deposit-limit' | 'loss-limit' | 'exclusion'

export interface Refusal {
  kind: RefusalKind
  /** The server's message, whole. */
  message: string
  /** When the limit resets or the pause ends, as the message gives it (`2026-11-29 00:00`, 北京时间). */
  until: string | null
}

const AT = /(\d{4}-\d{2}-\d{2} \d{2}:\d{2})/

/** The refusal a failure's message describes, or null for any other failure. */
export function readRefusal(message: string): Refusal | null {
  const until = AT.exec(message)?.[1] ?? null
  if (/充值限额/.test(message) && /重置/.test(message)) return { kind: 'deposit-limit', message, until }
  if (/亏损限额/.test(message) && /重置/.test(message)) return { kind: 'loss-limit', message, until }
  if (/(暂停游戏|自我排除)/.test(message) && /结束/.test(message))
    return { kind: 'exclusion', message, until }
  return null
}
