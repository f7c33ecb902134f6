/** An error whose message is shown to the person as it is, on one line. */
export class CliError extends Error {}
