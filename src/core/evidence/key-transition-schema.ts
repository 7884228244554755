/** The key transition schemas (key-transition.ts), apart so that the browser's verifier can name them without node:crypto. */
export const KEY_TRANSITION_SCHEMA = 'svc.key-transition/1';
export const KEY_TRANSITIONS_SCHEMA = 'svc.key-transitions/1';
