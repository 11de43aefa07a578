import { createHash, createHmac } from 'node:crypto'
import type { SyncHasher } from '@shared/games/chain'

/** SHA-256 and HMAC-SHA-256 through node:crypto: synchronous and fast, for the server's chain and draws. */
export const nodeHasher: SyncHasher = {
  sha256Hex: (text) => createHash('sha256').update(text, 'ascii').digest('hex'),
  hmacSha256Hex: (key, message) =>
    createHmac('sha256', Buffer.from(key, 'ascii')).update(message, 'ascii').digest('hex'),
}
