import type { AlertChannel, TestAlertResult } from '@flagman/contract'
import CheckCircleIcon from '@mui/icons-material/CheckCircle'
import ErrorIcon from '@mui/icons-material/Error'
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import Paper from '@mui/material/Paper'
import Typography from '@mui/material/Typography'
import type { TFunction } from 'i18next'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { useSendTestAlert } from '../api/send-test-alert'

/** Wide enough for a channel's answer on one or two lines. */
const RESULTS_DIALOG_WIDTH = 560

/** Product names stay as they are in every language; the others are translated. */
const CHANNEL_NAMES: Partial<Record<AlertChannel, string>> = {
  telegram: 'Telegram',
  slack: 'Slack',
  teams: 'Microsoft Teams',
  rocketchat: 'Rocket.Chat',
  dingtalk: 'DingTalk',
  gotify: 'Gotify',
  discord: 'Discord',
  mattermost: 'Mattermost',
}

export function channelName(t: TFunction<'projects'>, channel: AlertChannel): string {
  if (channel === 'email') return t('alerts.channels.email')
  if (channel === 'webhook') return t('alerts.channels.webhook')
  return CHANNEL_NAMES[channel] ?? channel
}

function Results({ result }: { result: TestAlertResult }) {
  const { t } = useTranslation('projects')
  if (result.channels.length === 0) {
    return <Alert severity="info">{t('alerts.noChannels')}</Alert>
  }
  return (
    <List dense aria-label={t('alerts.resultsTitle')}>
      {result.channels.map((item) => (
        <ListItem key={item.channel} disableGutters alignItems="flex-start">
          <ListItemIcon sx={{ minWidth: 36, mt: 0.5 }}>
            {item.ok ? (
              <CheckCircleIcon color="success" titleAccess={t('alerts.sent')} />
            ) : (
              <ErrorIcon color="error" titleAccess={t('alerts.failed')} />
            )}
          </ListItemIcon>
          <ListItemText
            primary={channelName(t, item.channel)}
            secondary={item.message}
            slotProps={{ secondary: { sx: { wordBreak: 'break-word' } } }}
          />
        </ListItem>
      ))}
    </List>
  )
}

/** Sends a test alert to every channel configured on the server and shows what each did. */
export function TestAlertSection({
  projectId,
  canUpdate,
}: {
  projectId: number
  canUpdate: boolean
}) {
  const { t } = useTranslation('projects')
  const { t: tCommon } = useTranslation()
  const titleId = useId()
  const send = useSendTestAlert(projectId)
  const [open, setOpen] = useState(false)

  const run = () => {
    setOpen(true)
    send.mutate()
  }

  return (
    <Paper
      component="section"
      aria-labelledby={titleId}
      variant="outlined"
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Typography id={titleId} variant="h6" component="h2" sx={{ mb: 2 }}>
        {t('alerts.title')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        <Typography variant="body2" sx={{ color: 'text.secondary', flex: '1 1 240px' }}>
          {t('alerts.text')}
        </Typography>
        <Button
          variant="outlined"
          startIcon={<NotificationsActiveIcon />}
          disabled={!canUpdate}
          loading={send.isPending}
          onClick={run}
        >
          {t('alerts.send')}
        </Button>
      </Box>
      <AppDialog
        open={open}
        onClose={() => setOpen(false)}
        title={t('alerts.resultsTitle')}
        width={RESULTS_DIALOG_WIDTH}
        actions={<Button onClick={() => setOpen(false)}>{tCommon('actions.close')}</Button>}
      >
        {send.isPending ? <Typography role="status">{t('alerts.sending')}</Typography> : null}
        <ErrorAlert error={send.error} />
        {send.data ? <Results result={send.data} /> : null}
      </AppDialog>
    </Paper>
  )
}
