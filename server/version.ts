import pkg from '../package.json' with { type: 'json' };

/** The release this build was cut from; reported by GET /health. */
export const SERVER_VERSION: string = pkg.version;
