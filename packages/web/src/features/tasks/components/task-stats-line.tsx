import { useTheme } from '@mui/material/styles'
import {
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js'
import { Line } from 'react-chartjs-2'
import { useTranslation } from 'react-i18next'
import { STATS_STATUSES, type StatsSeries } from '../task-stats'

// Only the parts a line chart needs, so the rest of Chart.js stays out of the bundle.
ChartJS.register(CategoryScale, LinearScale, PointElement, LineElement, Legend, Tooltip)

/** The canvas part of the stats chart; loaded on demand because Chart.js is large. */
export default function TaskStatsLine({ series, label }: { series: StatsSeries; label: string }) {
  const { t, i18n } = useTranslation('tasks')
  const theme = useTheme()
  const colors = {
    success: theme.palette.success.main,
    error: theme.palette.error.main,
    stopped: theme.palette.text.disabled,
  }
  const dateFormat = new Intl.DateTimeFormat(i18n.language, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  })
  return (
    <Line
      role="img"
      aria-label={label}
      data={{
        labels: series.days.map((day) => dateFormat.format(new Date(`${day}T00:00:00.000Z`))),
        datasets: STATS_STATUSES.map((status) => ({
          label: t(`status.${status}`),
          data: series.counts[status],
          borderColor: colors[status],
          backgroundColor: colors[status],
          pointRadius: series.days.length > 31 ? 0 : 3,
          tension: 0.2,
        })),
      }}
      options={{
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: {
            ticks: { color: theme.palette.text.secondary, maxTicksLimit: 12 },
            grid: { color: theme.palette.divider },
          },
          y: {
            beginAtZero: true,
            ticks: { color: theme.palette.text.secondary, precision: 0 },
            grid: { color: theme.palette.divider },
          },
        },
        plugins: { legend: { labels: { color: theme.palette.text.primary } } },
      }}
    />
  )
}
