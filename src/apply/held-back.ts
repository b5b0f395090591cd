import type { HoldCode } from '../types.js';

/** An action the caller holds back: reported with this status and code, never sent. */
export interface HeldBack {
  status: 'skipped' | 'blocked';
  code: HoldCode;
  message: string;
}
