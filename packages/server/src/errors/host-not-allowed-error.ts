import { WeftError } from '@weft/protocol';

/**
 * The request's `Host` is not a name this server answers to: a page whose
 * domain was made to resolve to 127.0.0.1 (DNS rebinding) would otherwise be
 * same-origin with a loopback server. The message quotes the host, cut short.
 */
export class HostNotAllowedError extends WeftError {
  constructor(host: string) {
    super({
      code: 'WEFT_HOST_NOT_ALLOWED',
      message: `Host ${JSON.stringify(host.slice(0, 100))} is not an address of this server. It answers loopback names (localhost, 127.0.0.1, [::1]), the address it listens on, and the names given with --allowed-hosts (allowedHosts); use one of those.`,
    });
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is HostNotAllowedError {
    return WeftError.isInstance(value) && value.code === 'WEFT_HOST_NOT_ALLOWED';
  }
}
