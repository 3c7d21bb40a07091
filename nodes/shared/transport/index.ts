/**
 * The one transport both nodes share: requests (request.ts), lists (paging.ts), what is in flight
 * (walker.ts), how fast each credential sends (sendRate.ts), what lives per run (state.ts).
 */
export * from './types';
export * from './policy';
export { accountKeyOf, CREDENTIAL_TYPE, isDotSegment, isLoopbackHost, resourcePath } from './connection';
export { describeSeconds, RateLimitWaitError, rateLimitWaitOf, RunCancelledError } from './errors';
export * from './redact';
export * from './request';
export * from './paging';
export * from './walker';
export * from './state';
