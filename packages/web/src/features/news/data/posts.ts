/**
 * News posts shown on the news page, newest first. Their texts are in the news translations
 * under `posts.<id>`: a title, a summary and the paragraphs "Read more" shows.
 */
export interface NewsPost {
  id: 'release-0-1-0' | 'terraform-state' | 'alerts'
  /** Day of the post, `YYYY-MM-DD`. */
  date: string
  /** How many paragraphs the post has beyond its summary. */
  paragraphs: 2
}

export const NEWS_POSTS: readonly NewsPost[] = [
  { id: 'alerts', date: '2026-11-24', paragraphs: 2 },
  { id: 'terraform-state', date: '2026-11-24', paragraphs: 2 },
  { id: 'release-0-1-0', date: '2026-11-22', paragraphs: 2 },
]
