import { hash, verify } from '@node-rs/argon2'

/** argon2id at OWASP's minimum: 19 MiB, 2 passes, 1 lane. `2` is Algorithm.Argon2id (a const enum). */
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS)

export const verifyPassword = async (stored: string, password: string): Promise<boolean> => {
  try {
    return await verify(stored, password)
  } catch {
    return false
  }
}
