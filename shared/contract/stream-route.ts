/**
 * The push channel's route without its event schemas (no zod), for the app's stream reader, which
 * loads before the contract's schemas do (see first-screen.ts). The contract object is `stream` in
 * stream.ts.
 */
export const streamRoute = { method: 'GET', path: '/api/stream', auth: true } as const

/** The header a reconnecting client sends with the id of the last event it saw. */
export const LAST_EVENT_ID_HEADER = 'last-event-id'

/**
 * The query parameter with the player's id the app adds to its stream: proxy mode checks the session
 * with the upstream's user-info endpoint, which wants it (docs/realtime.md#proxy-mode). The emulator
 * does not read it.
 */
export const PLAYER_ID_PARAM = 'player_id'
