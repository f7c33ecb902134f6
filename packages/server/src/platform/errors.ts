/**
 * Errors that services throw. One error handler turns them into `{"error": …}` with the
 * status below; routes never map errors themselves.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message)
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super(400, message, extra)
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Not signed in') {
    super(401, message)
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You do not have permission to do this') {
    super(403, message)
  }
}

export class NotFoundError extends AppError {
  constructor(what = 'Object') {
    super(404, `${what} not found`)
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message)
  }
}

export class TooManyRequestsError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message)
  }
}
