import type { Db } from '@server/db/database'
import type { announcementSchema } from '@shared/contract/account'
import type { z } from 'zod'

type Announcement = z.infer<typeof announcementSchema>

export class AnnouncementRepository {
  private readonly published

  constructor(db: Db) {
    this.published = db.prepare<
      [number],
      { id: number; title: string; content: string; pinned: number; published_at: number }
    >('SELECT * FROM announcements WHERE published_at <= ? ORDER BY pinned DESC, published_at DESC LIMIT 50')
  }

  /** Published by `now`, pinned first, newest first. */
  list(now: number): Announcement[] {
    return this.published.all(now).map((r) => ({ ...r, pinned: r.pinned === 1 }))
  }
}
