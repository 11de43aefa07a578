/**
 * The games' sounds through WebAudio, made from notes (no audio files): a draw chime and a brighter,
 * longer win fanfare, each note with a soft attack and a decaying tail so it rings rather than
 * clicks. A browser may refuse to play (no user gesture yet, no audio device): that is logged and
 * nothing else happens (docs/product.md#error-catalogue).
 */

export type SoundKind = 'draw' | 'win'

/** One note: when it starts after the sound's start, its pitch, how long it rings and how loud. */
export interface Note {
  at: number
  hz: number
  seconds: number
  gain: number
}

/** A two-note bell (E6 then B5) over about half a second: "the result is in". */
const DRAW: readonly Note[] = [
  { at: 0, hz: 1318.5, seconds: 0.45, gain: 0.09 },
  { at: 0.12, hz: 987.8, seconds: 0.5, gain: 0.08 },
]

/** A rising C major arpeggio ending on a held high C, about a second: unmistakably a win. */
const WIN: readonly Note[] = [
  { at: 0, hz: 523.3, seconds: 0.3, gain: 0.08 },
  { at: 0.11, hz: 659.3, seconds: 0.3, gain: 0.08 },
  { at: 0.22, hz: 784.0, seconds: 0.3, gain: 0.08 },
  { at: 0.33, hz: 1046.5, seconds: 0.7, gain: 0.1 },
]

export const SOUNDS: Readonly<Record<SoundKind, readonly Note[]>> = { draw: DRAW, win: WIN }

/** How long a sound lasts, in seconds: until its last note has rung out. */
export function soundSeconds(kind: SoundKind): number {
  return Math.max(...SOUNDS[kind].map((n) => n.at + n.seconds))
}

let context: AudioContext | null = null

function playNote(ctx: AudioContext, start: number, note: Note, wave: OscillatorType): void {
  const osc = ctx.createOscillator()
  const gain = ctx.createGain()
  osc.type = wave
  osc.frequency.value = note.hz
  const t0 = start + note.at
  const end = t0 + note.seconds
  gain.gain.setValueAtTime(0.0001, t0)
  gain.gain.exponentialRampToValueAtTime(note.gain, t0 + 0.015)
  gain.gain.exponentialRampToValueAtTime(0.0001, end)
  osc.connect(gain)
  gain.connect(ctx.destination)
  osc.start(t0)
  osc.stop(end + 0.02)
}

/** Plays a sound; never throws. */
export function playSound(kind: SoundKind): void {
  try {
    context ??= new AudioContext()
    const ctx = context
    const start = ctx.currentTime + 0.01
    for (const note of SOUNDS[kind]) playNote(ctx, start, note, kind === 'win' ? 'triangle' : 'sine')
    if (ctx.state === 'suspended') ctx.resume().catch((err: unknown) => console.warn('sound failed', err))
  } catch (err) {
    console.warn('sound failed', err)
  }
}
