/**
 * The one transport both nodes share: single requests in request.ts (the credential and URL in
 * connection.ts, what a failure is in classify.ts, its text in errors.ts, bodyText.ts and redact.ts, the numbers in policy.ts), lists in
 * paging.ts, what is in flight at once in walker.ts, how fast each credential sends in sendRate.ts, and
 * what lives per run and per credential in state.ts. It reads no node's parameters.
 */
export * from './types';
export * from './policy';
export { accountKeyOf, API_VERSION_PATH, CREDENTIAL_TYPE, isDotSegment, isLoopbackHost, resourcePath } from './connection';
export { describeFieldErrors, describeSeconds, RateLimitWaitError, rateLimitWaitOf, RunCancelledError } from './errors';
export * from './redact';
export * from './request';
export * from './paging';
export * from './walker';
export * from './state';
