/**
 * Puts a text on the clipboard. The Clipboard API needs a secure context (HTTPS or
 * localhost); elsewhere, or when it is refused, a selected hidden text area is copied.
 */
export async function copyText(text: string): Promise<void> {
  if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text)
      return
    } catch (error) {
      if (!copyWithSelection(text)) throw error
      return
    }
  }
  if (!copyWithSelection(text)) throw new Error('The browser refused to copy')
}

function copyWithSelection(text: string): boolean {
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.setAttribute('aria-hidden', 'true')
  area.style.position = 'fixed'
  area.style.top = '0'
  area.style.left = '0'
  area.style.opacity = '0'
  const active = document.activeElement
  document.body.appendChild(area)
  area.select()
  let copied: boolean
  try {
    // The older way; still the only one outside a secure context.
    copied = typeof document.execCommand === 'function' && document.execCommand('copy')
  } catch {
    copied = false
  } finally {
    area.remove()
    if (active instanceof HTMLElement) active.focus()
  }
  return copied
}
