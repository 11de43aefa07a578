/**
 * A short beep through WebAudio for a draw and a win. A browser may refuse to play (no user
 * gesture yet, no audio device): that is logged and nothing else happens (docs/product.md#error-catalogue).
 */

let context: AudioContext | null = null

export function beep(kind: 'draw' | 'win'): void {
  try {
    context ??= new AudioContext()
    const ctx = context
    const osc = ctx.createOscillator()
    const gain = ctx.createGain()
    osc.frequency.value = kind === 'win' ? 880 : 520
    gain.gain.value = 0.08
    osc.connect(gain)
    gain.connect(ctx.destination)
    const start = ctx.currentTime
    osc.start(start)
    osc.stop(start + (kind === 'win' ? 0.35 : 0.15))
    if (ctx.state === 'suspended') ctx.resume().catch((err: unknown) => console.warn('sound failed', err))
  } catch (err) {
    console.warn('sound failed', err)
  }
}
