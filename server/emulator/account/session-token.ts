import { hash } from 'node:crypto'

/** Only a hash of each token is stored, so a copy of the database gives no working tokens. */
export const hashToken = (token: string): string => hash('sha256', token, 'hex')
