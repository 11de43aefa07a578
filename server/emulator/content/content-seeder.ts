import { z } from 'zod'
import { loadFixture } from '../fixtures'
import type { Seeder } from '../seed'
import type { AnnouncementRepository } from './announcement-repository'

export const announcementsFixtureSchema = z.strictObject({
  announcements: z.array(
    z.strictObject({
      title: z.string().min(1),
      content: z.string().min(1),
      pinned: z.boolean().default(false),
      published_hours_ago: z.number().min(0),
    }),
  ),
})

/** The announcements of fixtures/announcements.json, published the given hours before the seed's time. */
export const contentSeeder =
  (announcements: AnnouncementRepository): Seeder =>
  async ({ fixturesDir, now }) => {
    const fixture = loadFixture(fixturesDir, 'announcements.json', announcementsFixtureSchema)
    return () => {
      for (const a of fixture.announcements)
        announcements.insert({
          title: a.title,
          content: a.content,
          pinned: a.pinned,
          publishedAt: now - a.published_hours_ago * 3_600_000,
        })
    }
  }
