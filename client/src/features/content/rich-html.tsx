/**
 * Rich text from the content endpoints. The server sanitises every `*_html` field against an
 * allow-list (no script, event handlers or javascript: URLs) before sending it, so it is set as is.
 */
export function RichHtml({ html, className = '' }: { html: string; className?: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server, per the content contract
  return <div className={`content__rich ${className}`} dangerouslySetInnerHTML={{ __html: html }} />
}
