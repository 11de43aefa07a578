import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CONTENT_IMAGES_PATH } from '@shared/contract/content'
import { toMicro } from '@shared/money'
import { z } from 'zod'
import { loadFixture } from '../fixtures'
import { sanitizeHtml } from './sanitize-html'

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS
const amount = z.string().regex(/^\d+(\.\d{1,6})?$/)
const imageFile = z.string().regex(/^[a-z0-9-]+\.(svg|png|jpg|webp)$/)
const htmlFile = z.string().regex(/^[a-z0-9-]+\.html$/)

const activitiesSchema = z.strictObject({
  activities: z.array(
    z.strictObject({
      id: z.number().int().positive(),
      title: z.string().min(1),
      summary: z.string(),
      category: z.string(),
      cover: imageFile,
      content: htmlFile,
      images: z.array(z.strictObject({ file: imageFile, alt: z.string() })),
      /** Negative: starts in the future. */
      starts_days_ago: z.number(),
      /** null: no end; negative: already ended. */
      ends_in_days: z.number().nullable(),
    }),
  ),
})

const article = z.strictObject({
  title: z.string().min(1),
  summary: z.string(),
  category: z.string(),
  html: z.string(),
})

const pagesSchema = z.strictObject({
  newbie: z.array(article),
  study: z.array(article),
  network: z.array(article),
  network_speed: z.strictObject({
    good_ms: z.number().int().positive(),
    fair_ms: z.number().int().positive(),
  }),
})

const serviceSchema = z.strictObject({
  app_url: z.string().min(1),
  web_url: z.url({ protocol: /^https$/ }),
  hours: z.string(),
  faq: z.array(z.strictObject({ question: z.string().min(1), answer: z.string().min(1) })),
})

const thirdPartySchema = z.strictObject({
  pages: z.array(
    z.strictObject({
      key: z.string().regex(/^[a-z0-9-]{1,32}$/),
      title: z.string().min(1),
      url: z.url({ protocol: /^https$/ }),
    }),
  ),
})

const prizePoolSchema = z.strictObject({
  base_amount: amount,
  share_bp: z.number().int().min(0).max(10_000),
  winner_min_payout: amount,
  winners: z.array(
    z.strictObject({
      name: z.string().min(1),
      game: z.string().min(1),
      amount,
      hours_ago: z.number().min(0),
    }),
  ),
})

export interface Activity {
  id: number
  title: string
  summary: string
  category: string
  cover: string
  starts_at: number
  ends_at: number | null
  content_html: string
  images: { url: string; alt: string; activity_id: number }[]
}

export interface Article {
  id: number
  title: string
  summary: string
  category: string
  content_html: string
}

export interface ContentImage {
  readonly body: Buffer
  readonly contentType: string
}

export interface Content {
  activities: Activity[]
  newbie: Article[]
  study: Article[]
  network: Article[]
  networkSpeed: { good_ms: number; fair_ms: number }
  service: z.infer<typeof serviceSchema> & { faq_html: { question: string; answer_html: string }[] }
  thirdParty: z.infer<typeof thirdPartySchema>['pages']
  prizePool: {
    baseMicro: number
    shareBp: number
    winnerMinPayoutMicro: number
    winners: { name: string; game: string; amountMicro: number; wonAt: number }[]
  }
  images: ReadonlyMap<string, ContentImage>
}

const imageUrl = (file: string) => `${CONTENT_IMAGES_PATH}/${file}`

const IMAGE_TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
}

/**
 * Reads fixtures/content once: every piece of HTML is sanitised here, on the way in, so nothing
 * served can carry a script whatever a fixture holds. A bad fixture stops the start.
 */
export function loadContent(fixturesDir: string, now: number): Content {
  const dir = join(fixturesDir, 'content')
  const images = new Map<string, ContentImage>()
  for (const file of readdirSync(join(dir, 'images'))) {
    if (!imageFile.safeParse(file).success) continue
    const ext = file.slice(file.lastIndexOf('.') + 1)
    images.set(file, {
      body: readFileSync(join(dir, 'images', file)),
      contentType: IMAGE_TYPES[ext] ?? 'application/octet-stream',
    })
  }
  const needImage = (file: string, where: string) => {
    if (!images.has(file)) throw new Error(`fixture content/${where}: no image content/images/${file}`)
    return imageUrl(file)
  }

  const { activities } = loadFixture(dir, 'activities.json', activitiesSchema)
  const pages = loadFixture(dir, 'pages.json', pagesSchema)
  const service = loadFixture(dir, 'service.json', serviceSchema)
  const { pages: thirdParty } = loadFixture(dir, 'third-party.json', thirdPartySchema)
  const pool = loadFixture(dir, 'prize-pool.json', prizePoolSchema)

  const articles = (list: z.infer<typeof article>[]): Article[] =>
    list.map((a, i) => ({
      id: i + 1,
      title: a.title,
      summary: a.summary,
      category: a.category,
      content_html: sanitizeHtml(a.html),
    }))

  return {
    activities: activities.map((a) => ({
      id: a.id,
      title: a.title,
      summary: a.summary,
      category: a.category,
      cover: needImage(a.cover, 'activities.json'),
      starts_at: now - Math.round(a.starts_days_ago * DAY_MS),
      ends_at: a.ends_in_days === null ? null : now + Math.round(a.ends_in_days * DAY_MS),
      content_html: sanitizeHtml(readFileSync(join(dir, 'html', a.content), 'utf8')),
      images: a.images.map((img) => ({
        url: needImage(img.file, 'activities.json'),
        alt: img.alt,
        activity_id: a.id,
      })),
    })),
    newbie: articles(pages.newbie),
    study: articles(pages.study),
    network: articles(pages.network),
    networkSpeed: pages.network_speed,
    service: {
      ...service,
      faq_html: service.faq.map((f) => ({ question: f.question, answer_html: sanitizeHtml(f.answer) })),
    },
    thirdParty,
    prizePool: {
      baseMicro: toMicro(pool.base_amount),
      shareBp: pool.share_bp,
      winnerMinPayoutMicro: toMicro(pool.winner_min_payout),
      winners: pool.winners.map((w) => ({
        name: w.name,
        game: w.game,
        amountMicro: toMicro(w.amount),
        wonAt: now - Math.round(w.hours_ago * HOUR_MS),
      })),
    },
    images,
  }
}
