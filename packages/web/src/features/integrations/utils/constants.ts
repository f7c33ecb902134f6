/** How often the delivery log is read again while the integration page is open. */
export const DELIVERIES_REFRESH_MS = 5_000
