/** The one transport both nodes share: single requests in request.ts, lists in paging.ts. */
export * from './request';
export * from './paging';
