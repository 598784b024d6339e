/** A permission's key: `resource:action`. */
export const keyOf = (resource: string, action: string) => `${resource}:${action}`;
