import { formatDateMinute } from '@client/lib/date-time'

/** Pure helpers of the content pages, tested without a browser. */

export type ActivityStatus = 'upcoming' | 'ongoing' | 'ended'

/** Each status's label and the fill of its tag, which carries white text. */
export const ACTIVITY_STATUS: Record<ActivityStatus, { label: string; color: string }> = {
  ongoing: { label: '进行中', color: 'var(--app-success-fill)' },
  upcoming: { label: '即将开始', color: 'var(--app-primary-fill)' },
  ended: { label: '已结束', color: 'var(--app-neutral-fill)' },
}

/** "2026-11-01 00:00 至 2026-11-30 23:59" (CST), or "… 起长期有效" without an end. */
export function activityPeriod(startsAt: number, endsAt: number | null): string {
  return endsAt === null
    ? `${formatDateMinute(startsAt)} 起长期有效`
    : `${formatDateMinute(startsAt)} 至 ${formatDateMinute(endsAt)}`
}

export type Quality = 'good' | 'fair' | 'poor'

export const QUALITY_LABEL: Record<Quality, string> = { good: '良好', fair: '一般', poor: '较差' }

/** A round trip at or under good_ms is good, at or under fair_ms fair, above that poor. */
export function classifyRoundTrip(ms: number, goodMs: number, fairMs: number): Quality {
  if (ms <= goodMs) return 'good'
  if (ms <= fairMs) return 'fair'
  return 'poor'
}

/** The middle sample (the lower middle of an even count): one slow outlier does not decide. */
export function medianMs(samples: readonly number[]): number | null {
  if (samples.length === 0) return null
  const sorted = [...samples].sort((a, b) => a - b)
  return Math.round(sorted[Math.floor((sorted.length - 1) / 2)] ?? 0)
}

export interface ThirdPartyPage {
  key: string
  title: string
  url: string
  origin: string
}

/**
 * The allow-listed page for `key`, or null. The page's URL must also sit on the origin the list
 * names for it, so a wrong entry can never put another site in the frame.
 */
export function allowedThirdParty(
  list: readonly ThirdPartyPage[],
  key: string | null,
): ThirdPartyPage | null {
  if (!key) return null
  const page = list.find((item) => item.key === key)
  if (!page) return null
  try {
    const url = new URL(page.url)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
    return url.origin === page.origin ? page : null
  } catch {
    return null
  }
}
