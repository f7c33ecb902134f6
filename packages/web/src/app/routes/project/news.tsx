import { NewsPage } from '../../../features/news/components/news-page'

export function NewsRoute() {
  return <NewsPage />
}
