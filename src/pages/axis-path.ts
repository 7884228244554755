/** Where a model-comparison axis's own page is (issue 29): a path with no query, so a plain static mirror can serve it. */
export const axisPagePath = (axis: string) => `/dashboard/axes/${encodeURIComponent(axis)}`;
