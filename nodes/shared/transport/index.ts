/**
 * The one transport both nodes share: single requests in request.ts, lists in paging.ts, what is
 * in flight at once in walker.ts.
 */
export * from './request';
export * from './paging';
export * from './walker';
