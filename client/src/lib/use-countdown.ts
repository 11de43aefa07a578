import { useCallback, useEffect, useState } from 'react'

/** Seconds left before something may happen again (an SMS resend); counts down once a second. */
export function useCountdown(): { remaining: number; start: (seconds: number) => void } {
  const [endsAt, setEndsAt] = useState(0)
  const [now, setNow] = useState(() => Date.now())

  useEffect(() => {
    if (endsAt <= now) return
    // Wake when the whole-second count next drops.
    const timer = setTimeout(() => setNow(Date.now()), (endsAt - now) % 1000 || 1000)
    return () => clearTimeout(timer)
  }, [endsAt, now])

  const start = useCallback((seconds: number) => {
    const at = Date.now()
    setNow(at)
    setEndsAt(at + seconds * 1000)
  }, [])

  return { remaining: Math.max(0, Math.ceil((endsAt - now) / 1000)), start }
}
