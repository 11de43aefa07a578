import type { Db } from '@server/db/database'
import type { announcementSchema } from '@shared/contract/account'
import type { z } from 'zod'

type Announcement = z.infer<typeof announcementSchema>

export interface NewAnnouncement {
  title: string
  content: string
  pinned: boolean
  publishedAt: number
}

export class AnnouncementRepository {
  private readonly published
  private readonly add
  private readonly between

  constructor(db: Db) {
    this.add = db.prepare<[string, string, number, number]>(
      'INSERT INTO announcements (title, content, pinned, published_at) VALUES (?, ?, ?, ?)',
    )
    this.between = db.prepare<
      [number, number],
      { id: number; title: string; content: string; pinned: number; published_at: number }
    >('SELECT * FROM announcements WHERE published_at > ? AND published_at <= ? ORDER BY published_at, id')
    this.published = db.prepare<
      [number],
      { id: number; title: string; content: string; pinned: number; published_at: number }
    >('SELECT * FROM announcements WHERE published_at <= ? ORDER BY pinned DESC, published_at DESC LIMIT 50')
  }

  /** Published after `from` and by `to`, oldest first. */
  publishedBetween(from: number, to: number): Announcement[] {
    return this.between.all(from, to).map((r) => ({ ...r, pinned: r.pinned === 1 }))
  }

  /** Published by `now`, pinned first, newest first. */
  list(now: number): Announcement[] {
    return this.published.all(now).map((r) => ({ ...r, pinned: r.pinned === 1 }))
  }

  insert(a: NewAnnouncement): void {
    this.add.run(a.title, a.content, a.pinned ? 1 : 0, a.publishedAt)
  }
}
