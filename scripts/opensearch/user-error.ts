/**
 * A failure the user can act on: the CLI prints the message as one line on stderr (no stack
 * trace) and exits 1. `details` (e.g. the tail of a node's log) follow it, for CI output.
 */
export class UserError extends Error {
  constructor(
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
  }
}
