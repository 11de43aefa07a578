/**
 * The push channel's route without its event schemas (no zod), for the app's stream reader, which
 * loads before the contract's schemas do (see first-screen.ts). The contract object is `stream` in
 * stream.ts.
 */
export const streamRoute = { method: 'GET', path: '/api/stream', auth: true } as const

/** The header a reconnecting client sends with the id of the last event it saw. */
export const LAST_EVENT_ID_HEADER = 'last-event-id'
