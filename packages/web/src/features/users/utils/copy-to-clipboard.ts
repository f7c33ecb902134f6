/** Writes a text to the clipboard; rejects with the browser's reason when it can not. */
export async function copyToClipboard(text: string): Promise<void> {
  if (typeof navigator === 'undefined' || !navigator.clipboard?.writeText) {
    throw new Error('The clipboard is not available in this browser')
  }
  await navigator.clipboard.writeText(text)
}
