/** A wallet form's problem, announced to screen readers; nothing when there is none. */
export function FormError({ message }: { message: string | null | undefined }) {
  return message ? (
    <p className="wallet-error" role="alert">
      {message}
    </p>
  ) : null
}
