import type { HandlerMap } from '../http/operations';
import { notImplementedHandlers } from './not-implemented';

/** Every operation of the contract, exactly once. */
export const handlers: HandlerMap = {
  ...notImplementedHandlers,
};
