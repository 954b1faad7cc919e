import { WeftError } from '@weft/protocol';

/**
 * A browser sent a request that changes data from a page of another site
 * (`Sec-Fetch-Site`, or an `Origin` that is not the server's own). Only the
 * server's own web UI and clients that are not browsers may write.
 */
export class CrossSiteRequestError extends WeftError {
  constructor(from: string) {
    super({
      code: 'WEFT_CROSS_SITE_REQUEST',
      message: `A page of another site (${from.slice(0, 100)}) may not change data on this server; use the server's own web UI, the SDK or the API from a program.`,
    });
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is CrossSiteRequestError {
    return WeftError.isInstance(value) && value.code === 'WEFT_CROSS_SITE_REQUEST';
  }
}
