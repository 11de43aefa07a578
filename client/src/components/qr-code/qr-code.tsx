import { useEffect, useState } from 'react'
import './qr-code.css'

export interface QrCodeProps {
  /** What the code holds: an address, a payment URI. */
  text: string
  /** The image's accessible name. */
  label: string
}

/**
 * A QR code of `text` (an address to send to). The qrcode library is fetched only when this
 * renders, so that no page without a code carries it.
 */
export function QrCode({ text, label }: QrCodeProps) {
  const [image, setImage] = useState<{ text: string; url: string } | null>(null)
  const [failed, setFailed] = useState(false)

  useEffect(() => {
    let live = true
    setFailed(false)
    import('qrcode')
      .then((qrcode) => qrcode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 1, width: 480 }))
      .then(
        (url) => {
          if (live) setImage({ text, url })
        },
        (error: unknown) => {
          console.error('QR code failed', error)
          if (live) setFailed(true)
        },
      )
    return () => {
      live = false
    }
  }, [text])

  if (failed) return <div className="qr-code qr-code--empty">二维码生成失败，请复制地址</div>
  if (image?.text !== text) return <div className="qr-code qr-code--empty" aria-busy="true" />
  return <img className="qr-code" src={image.url} alt={label} width={180} height={180} />
}
