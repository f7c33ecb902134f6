import Anser from 'anser'
import { type CSSProperties, memo } from 'react'

function styleOf(entry: ReturnType<typeof Anser.ansiToJson>[number]): CSSProperties {
  const style: CSSProperties = {}
  if (entry.fg) style.color = `rgb(${entry.fg})`
  if (entry.bg) style.backgroundColor = `rgb(${entry.bg})`
  const decorations = entry.decorations ?? []
  if (decorations.includes('bold')) style.fontWeight = 'bold'
  if (decorations.includes('italic')) style.fontStyle = 'italic'
  if (decorations.includes('dim')) style.opacity = 0.6
  if (decorations.includes('underline')) style.textDecoration = 'underline'
  return style
}

/** One log line with its ANSI colours turned into styled text spans. */
export const AnsiLine = memo(function AnsiLine({ text }: { text: string }) {
  // Most lines carry no escape sequence: they need neither parsing nor extra elements.
  if (!text.includes('\u001b')) return <>{text}</>
  const parts = Anser.ansiToJson(text, { remove_empty: true, use_classes: false })
  return (
    <>
      {parts.map((part, index) => (
        <span key={index} style={styleOf(part)}>
          {part.content}
        </span>
      ))}
    </>
  )
})
