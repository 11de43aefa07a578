/** A debit the balance does not cover: the ledger throws it, and the caller's transaction rolls back. */
export class InsufficientFundsError extends Error {
  override name = 'InsufficientFundsError'
}
