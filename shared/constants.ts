/** Business constants (docs/product.md#constants). */
export const REQUEST_TIMEOUT_MS = 10_000
export const LOADING_TOAST_AFTER_MS = 1_500
export const DOUBLE_TAP_WINDOW_MS = 300
export const TOAST_DURATION_MS = 2_000
export const CAPTURE_TIMEOUT_MS = 15_000
export const CHAT_FALLBACK_MS = 2_000
export const DESIGN_WIDTH_PX = 375
export const ROOT_FONT_PX = 33
export const THEMES = ['light', 'dark'] as const
export type Theme = (typeof THEMES)[number]
export const DEFAULT_BALANCE = '0.00'
export const LOGGED_OUT_BALANCE = '0'
export const AWARD_HIGHLIGHT = { chars: 3, maxLength: 34, prefix: '00...' } as const
export const MASK_STARS = 3
/** The header that carries the session token. */
export const TOKEN_HEADER = 'token'
/** Header a money-moving POST may carry so that a replay moves money once. */
export const IDEMPOTENCY_HEADER = 'idempotency-key'
/** An Idempotency-Key: 1–128 visible ASCII characters, e.g. a UUID. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,128}$/
/** Header that isolates a tester's rules, clock and journal. */
export const SCOPE_HEADER = 'x-emu-scope'
