import Button from '@mui/material/Button'
import Card from '@mui/material/Card'
import CardActions from '@mui/material/CardActions'
import CardContent from '@mui/material/CardContent'
import Collapse from '@mui/material/Collapse'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '../../../components/page-header'
import { formatDate } from '../../install/utils/format-date'
import { type NewsPost, NEWS_POSTS } from '../data/posts'

function Post({ post }: { post: NewsPost }) {
  const { t, i18n } = useTranslation('news')
  const [open, setOpen] = useState(false)
  const titleId = useId()
  const moreId = useId()
  const paragraphs = ([1, 2] as const).slice(0, post.paragraphs)
  return (
    <Card component="article" aria-labelledby={titleId} variant="outlined">
      <CardContent>
        <Typography id={titleId} component="h2" variant="h6">
          {t(`posts.${post.id}.title`)}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
          <time dateTime={post.date}>{formatDate(post.date, i18n.language)}</time>
        </Typography>
        <Typography>{t(`posts.${post.id}.summary`)}</Typography>
        <Collapse in={open} id={moreId}>
          {paragraphs.map((n) => (
            <Typography key={n} sx={{ mt: 1.5 }}>
              {t(`posts.${post.id}.more${n}`)}
            </Typography>
          ))}
        </Collapse>
      </CardContent>
      <CardActions>
        <Button
          size="small"
          aria-expanded={open}
          aria-controls={moreId}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? t('showLess') : t('readMore')}
        </Button>
      </CardActions>
    </Card>
  )
}

/** News about Flagman, newest first. */
export function NewsPage() {
  const { t } = useTranslation('news')
  return (
    <>
      <PageHeader title={t('title')} />
      <Stack spacing={2} sx={{ p: { xs: 2, sm: 3 }, maxWidth: 800 }}>
        {NEWS_POSTS.map((post) => (
          <Post key={post.id} post={post} />
        ))}
      </Stack>
    </>
  )
}
