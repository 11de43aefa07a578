import { Fragment } from 'react'

/**
 * Figures, dates and times inside a sentence the server wrote: `2026-11-29 00:00`, `100.00 USDT`,
 * `15 分钟`. Each is kept on one line (the `num` class of styles/global.css); the words around them
 * wrap as usual.
 */
const FIGURE =
  /(\d{4}-\d{2}-\d{2}(?:[ \u00a0]\d{2}:\d{2}(?::\d{2})?)?|\d{2}-\d{2}[ \u00a0]\d{2}:\d{2}|\d{1,2}:\d{2}(?::\d{2})?|[+-]?\d[\d,]*(?:\.\d+)?%?(?: ?(?:USDT|TRX|分钟|小时|天|秒|期|笔|个|人))?)/

export function NumText({ text }: { text: string }) {
  // split() with a capturing group puts the figures at the odd indexes; each part is keyed by where
  // it starts in the text.
  const parts = text.split(new RegExp(FIGURE.source, 'g'))
  let at = 0
  const nodes = parts.map((part, i) => {
    const key = `${at}:${i % 2}`
    at += part.length
    return i % 2 === 1 ? (
      <span key={key} className="num">
        {part}
      </span>
    ) : (
      <Fragment key={key}>{part}</Fragment>
    )
  })
  return <>{nodes}</>
}
