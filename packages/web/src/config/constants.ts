/** How long a snackbar stays on screen. */
export const SNACKBAR_TIMEOUT_MS = 3000

/** Default width of a dialog in pixels. */
export const DIALOG_WIDTH = 400

/** Width of the side drawer in pixels. */
export const DRAWER_WIDTH = 260

/** Below this viewport width the drawer becomes a temporary (overlay) drawer. */
export const MOBILE_BREAKPOINT_PX = 960

/** Rows per page of the administration tables. */
export const TABLE_ROWS_PER_PAGE = 20
