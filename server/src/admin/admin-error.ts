// An operator's mistake or a refusal the operator can act on: printed as it is, without a stack trace.
export class AdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminError';
  }
}
