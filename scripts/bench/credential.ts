/**
 * A bench player as the load generators are handed it: its session token and player id, as
 * `token@id`. The stream is opened with both, as the app opens it (`?player_id=`, which proxy mode
 * needs to check the session upstream); polling sends the token only.
 */
export const credential = (token: string, playerId: number): string => `${token}@${playerId}`

export function tokenOf(credential: string): string {
  const at = credential.lastIndexOf('@')
  return at < 0 ? credential : credential.slice(0, at)
}

/** The stream's query string for this player (empty for a bare token). */
export function streamQuery(credential: string): string {
  const at = credential.lastIndexOf('@')
  return at < 0 ? '' : `?player_id=${encodeURIComponent(credential.slice(at + 1))}`
}
