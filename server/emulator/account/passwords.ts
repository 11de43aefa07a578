import { hash, verify } from '@node-rs/argon2'

/** argon2id at OWASP's minimum: 19 MiB, 2 passes, 1 lane. `2` is Algorithm.Argon2id (a const enum). */
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

/**
 * Passwords are hashed in Unicode NFC, so the same letters typed as one code point on one device
 * and as a letter plus a combining mark on another are the same password. ASCII is unchanged.
 */
export const hashPassword = (password: string): Promise<string> => hash(password.normalize('NFC'), OPTIONS)

export const verifyPassword = async (stored: string, password: string): Promise<boolean> => {
  try {
    return await verify(stored, password.normalize('NFC'))
  } catch {
    return false
  }
}
