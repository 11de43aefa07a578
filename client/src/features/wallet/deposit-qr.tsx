import { useEffect, useState } from 'react'

/**
 * The QR code of the deposit address. The qrcode library is fetched only when this renders, so
 * that no other page carries it.
 */
export function DepositQr({ text, label }: { text: string; label: string }) {
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

  if (failed) return <div className="wallet-qr wallet-qr--empty">二维码生成失败，请复制地址</div>
  if (image?.text !== text) return <div className="wallet-qr wallet-qr--empty" aria-busy="true" />
  return <img className="wallet-qr" src={image.url} alt={label} width={180} height={180} />
}
