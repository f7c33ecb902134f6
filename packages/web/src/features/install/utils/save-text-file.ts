/** Saves a text the console already holds as a download named `name`. */
export function saveTextFile(name: string, text: string, type = 'text/plain'): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked later: a browser may read the address only after the click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
