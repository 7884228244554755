/** Headers every response of the service carries, and the JSON media type its documents use. */
export const BASE_HEADERS = { 'access-control-allow-origin': '*', 'x-content-type-options': 'nosniff' } as const;

export const JSON_TYPE = 'application/json; charset=utf-8';
